import type { MutantInfo } from "../../engine/types.js";
import { rewardVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "agentReward",
  mistake: "the <tool_call> tag balance was counted on each whole turn; MiniMind counts it on the turn's answer (after its first </think>), so tags inside the thinking cost nothing",
};
export const agentReward = rewardVariant({ tagsOnWholeTurn: true });
