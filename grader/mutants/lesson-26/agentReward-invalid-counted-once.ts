import type { MutantInfo } from "../../engine/types.js";
import { rewardVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "agentReward",
  mistake: "an invalid call counts twice in the gap: once as a valid call missing and once as an extra call",
};
export const agentReward = rewardVariant({ invalidCountedOnce: true });
