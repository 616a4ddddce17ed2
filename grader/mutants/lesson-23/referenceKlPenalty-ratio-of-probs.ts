import { klVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = {
  exercise: "referenceKlPenalty",
  mistake: "e^u was computed as exp(ref) / exp(policy): both underflow to 0 for log-probs below about −104, giving NaN; exponentiate the difference, exp(ref − policy)",
};
export const referenceKlPenalty = klVariant({ ratioOfProbs: true });
