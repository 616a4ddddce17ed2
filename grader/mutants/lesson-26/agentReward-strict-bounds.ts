import type { MutantInfo } from "../../engine/types.js";
import { rewardVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "agentReward",
  mistake: "the length windows left out their ends; MiniMind's include them: 5 <= len <= 800 and 20 <= len(think) <= 300",
};
export const agentReward = rewardVariant({ strictBounds: true });
