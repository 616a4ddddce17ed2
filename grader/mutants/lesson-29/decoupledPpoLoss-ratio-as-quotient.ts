import { lossVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = {
  exercise: "decoupledPpoLoss",
  mistake: "the ratios were taken as exp(log π_θ) / exp(log π_prox) (and exp(log π_prox) / exp(log π_behave)); for log-probs below about −104 both exponentials underflow to 0 and the ratio is 0/0 = NaN: exponentiate the difference of the log-probs instead",
};
export const decoupledPpoLoss = lossVariant({ ratioAsQuotient: true });
