import type { MutantInfo } from "../../engine/types.js";
import { cispoVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "cispoPolicyLoss",
  mistake: "the ratio was computed as exp(policy) / exp(old): both underflow to 0 for log-probs below about −104, giving NaN; exponentiate the difference, exp(policy − old)",
};
export const cispoPolicyLoss = cispoVariant({ ratioOfProbs: true });
