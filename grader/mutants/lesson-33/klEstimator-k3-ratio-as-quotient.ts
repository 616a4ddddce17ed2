import type { MutantInfo } from "../../engine/types.js";
import { klVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "klEstimator",
  mistake: "k3's ratio p_base/p was taken as exp(logProbsBase) / exp(logProbs); for log-probs below about −104 both exponentials underflow and the ratio is 0/0 = NaN: exponentiate the difference instead",
};
export const klEstimator = klVariant({ k3RatioAsQuotient: true });
