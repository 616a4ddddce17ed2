import type { MutantInfo } from "../../engine/types.js";
import { penaltyVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "repetitionPenalty",
  mistake: "the fraction of repeated n-grams is scaled by cap·2, so half repeats already reach the cap",
};
export const repetitionPenalty = penaltyVariant({ noFactorTwo: true });
