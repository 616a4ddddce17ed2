import { distillVariant } from "./_distill.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = {
  exercise: "distillLoss",
  mistake: "the importance weight was taken as exp(log π_θ) / exp(log π_old); for log-probs below about −104 both exponentials underflow and the weight is 0/0 = NaN: exponentiate the difference instead",
};
export const distillLoss = distillVariant({ weightAsQuotient: true });
