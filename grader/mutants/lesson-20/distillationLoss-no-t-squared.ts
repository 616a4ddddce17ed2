import type { MutantInfo } from "../../engine/types.js";
import { distillationLossVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "distillationLoss", mistake: "the T² factor is missing: softening by T shrinks the KL's gradients by about 1/T², and T² restores their size" };
export const distillationLoss = distillationLossVariant({ noTemperatureSquared: true });
