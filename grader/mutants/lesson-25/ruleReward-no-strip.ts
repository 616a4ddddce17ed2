import type { MutantInfo } from "../../engine/types.js";
import { rewardVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "ruleReward",
  mistake: "the length rules measure the stripped text: len(response.strip()), len(thinking.strip())",
};
export const ruleReward = rewardVariant({ noStrip: true });
