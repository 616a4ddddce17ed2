import { policyVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = {
  exercise: "ppoPolicyLoss",
  mistake: "the ratio was computed as exp(new) / exp(old): both underflow to 0 for log-probs below about −104, giving NaN; exponentiate the difference, exp(new − old)",
};
export const ppoPolicyLoss = policyVariant({ ratioOfProbs: true });
