import { filterVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "filteredProbabilities", mistake: "previousTokens was read whenever the penalty is not 1; without a history there is nothing to penalise (leave the scores as they are)" };
export const filteredProbabilities = filterVariant({ penaltyNeedsHistory: true });
