import type { MutantInfo } from "../../engine/types.js";
import { penaltyVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "repetitionPenalty",
  mistake: "each token was lower-cased after tokenising; MiniMind lower-cases the whole text first, and lower-casing can change the tokens (İ becomes i plus a combining dot, which is not a word character)",
};
export const repetitionPenalty = penaltyVariant({ lowerAfterTokenising: true });
