import type { MutantInfo } from "../../engine/types.js";
import { rewardVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "agentReward",
  mistake: "tool calls were collected from each whole turn; MiniMind parses them from the turn's answer, the stripped text after its first </think>, so a <tool_call> written inside the thinking is not a call",
};
export const agentReward = rewardVariant({ callsFromWholeTurn: true });
