import type { MutantInfo } from "../../engine/types.js";
import { rewardVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "ruleReward",
  mistake: "split at the first </think> (Python's split('</think>', 1)), not the last",
};
export const ruleReward = rewardVariant({ lastThinkTag: true });
