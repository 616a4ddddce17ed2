import type { MutantInfo } from "../../engine/types.js";
import { rewardVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "agentReward",
  mistake: "both sides were upper-cased to ignore case; MiniMind lower-cases them, and the two differ: 'ß' upper-cases to 'SS', so 'Straße' is not in 'STRASSE' to Python",
};
export const agentReward = rewardVariant({ upperCaseMatch: true });
