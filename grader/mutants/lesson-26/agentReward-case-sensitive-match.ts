import type { MutantInfo } from "../../engine/types.js";
import { rewardVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "agentReward",
  mistake: "the ground truth was matched case-sensitively; MiniMind lower-cases both sides (s.lower() in text.lower())",
};
export const agentReward = rewardVariant({ caseSensitiveMatch: true });
