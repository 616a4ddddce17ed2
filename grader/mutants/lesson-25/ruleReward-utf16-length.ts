import type { MutantInfo } from "../../engine/types.js";
import { rewardVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "ruleReward",
  mistake: "Python's len() counts code points; JavaScript's .length counts UTF-16 units (an emoji is 2): count with [...s].length",
};
export const ruleReward = rewardVariant({ utf16Length: true });
