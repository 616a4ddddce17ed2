import type { MutantInfo } from "../../engine/types.js";
import { rewardVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "agentReward",
  mistake: "lengths are Python's len: code points after Python's strip (an emoji is 1, not 2)",
};
export const agentReward = rewardVariant({ utf16Length: true });
