import type { MutantInfo } from "../../engine/types.js";
import { rewardVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "ruleReward",
  mistake: "the length windows include their ends: 20 <= len <= 800 and 20 <= len <= 300",
};
export const ruleReward = rewardVariant({ strictBounds: true });
