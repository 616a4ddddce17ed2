import type { MutantInfo } from "../../engine/types.js";
import { rewardVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "agentReward",
  mistake: "the total is clipped to [−3, 3]",
};
export const agentReward = rewardVariant({ noClip: true });
