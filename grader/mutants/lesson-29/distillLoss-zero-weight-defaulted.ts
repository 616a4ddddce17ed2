import { distillVariant } from "./_distill.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = {
  exercise: "distillLoss",
  mistake: "the default was applied with `distillLossWeight || 0.005`, so an explicit weight of 0 became 0.005; only an omitted weight takes the default (`??`)",
};
export const distillLoss = distillVariant({ zeroWeightDefaulted: true });
