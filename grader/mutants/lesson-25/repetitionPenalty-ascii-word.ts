import type { MutantInfo } from "../../engine/types.js";
import { penaltyVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "repetitionPenalty",
  mistake: "JavaScript's \\w is ASCII-only: Python's is Unicode-aware, so use the u flag with [\\p{L}\\p{N}_] (a run of Chinese characters is one token)",
};
export const repetitionPenalty = penaltyVariant({ asciiWord: true });
