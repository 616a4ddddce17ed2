import type { MutantInfo } from "../../engine/types.js";
import { klVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "tokenKlPenalty",
  mistake: "e^δ was computed as exp(ref) / exp(policy): both underflow to 0 for log-probs below about −104, giving NaN; exponentiate the difference, exp(ref − policy)",
};
export const tokenKlPenalty = klVariant("ratio-of-probs");
