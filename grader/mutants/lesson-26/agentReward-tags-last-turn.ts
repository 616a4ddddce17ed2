import type { MutantInfo } from "../../engine/types.js";
import { rewardVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "agentReward",
  mistake: "unbalanced <tool_call> tags are counted in every turn's answer, not only the last",
};
export const agentReward = rewardVariant({ tagsLastTurnOnly: true });
