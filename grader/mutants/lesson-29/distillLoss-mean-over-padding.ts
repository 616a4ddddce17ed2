import type { MutantInfo } from "../../engine/types.js";
import { distillVariant } from "./_distill.js";

export const mutant: MutantInfo = {
  exercise: "distillLoss",
  mistake: "both terms are means over the valid tokens (Σ mask, at least 1), not over every position",
};
export const distillLoss = distillVariant({ meanOverAll: true });
