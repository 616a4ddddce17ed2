import type { MutantInfo } from "../../engine/types.js";
import { distillVariant } from "./_distill.js";

export const mutant: MutantInfo = {
  exercise: "distillLoss",
  mistake: "pure KD is a policy-gradient term: the reward is weighted by π_θ/π_old, and that weight is what carries the gradient",
};
export const distillLoss = distillVariant({ noImportanceWeight: true });
