import type { MutantInfo } from "../../engine/types.js";
import { sapoVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "sapoLoss",
  mistake: "the ratio was taken as exp(logprobs) / exp(oldLogprobs); for log-probs below about −104 both exponentials underflow and the ratio is 0/0 = NaN: exponentiate the log-ratio instead",
};
export const sapoLoss = sapoVariant({ ratioAsQuotient: true });
