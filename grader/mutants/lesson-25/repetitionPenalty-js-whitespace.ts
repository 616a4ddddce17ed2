import type { MutantInfo } from "../../engine/types.js";
import { penaltyVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "repetitionPenalty",
  mistake: "JavaScript's \\s is not Python's: Python treats \\x1c-\\x1f and NEL as spaces and the BOM (U+FEFF) as a character",
};
export const repetitionPenalty = penaltyVariant({ jsWhitespace: true });
