import type { MutantInfo } from "../../engine/types.js";
import { rewardVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "ruleReward",
  mistake: "with a think block, the repetition penalty applies to the answer after the first </think>, not to the thinking",
};
export const ruleReward = rewardVariant({ penaltyOnWholeResponse: true });
