import type { MutantInfo } from "../../engine/types.js";
import { mismatchVariant } from "./_sources.js";

export const mutant: MutantInfo = {
  exercise: "mismatchKl",
  mistake: "the ratio r of the dual estimator was taken as exp(logprobs) / exp(oldLogp) in float32; for log-probs below about −104 both exponentials underflow and r is 0/0 = NaN: take exp of the log-ratio instead",
};
export const mismatchKl = mismatchVariant({ ratioAsQuotient: true });
