import type { MutantInfo } from "../../engine/types.js";
import { penaltyVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "repetitionPenalty",
  mistake: "lower-case the text before tokenising: 'The' and 'the' are the same word to MiniMind",
};
export const repetitionPenalty = penaltyVariant({ caseSensitive: true });
