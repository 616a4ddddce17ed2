import type { MutantInfo } from "../../engine/types.js";
import { distillationLossVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "distillationLoss", mistake: "the KL was averaged over every position; only positions whose label counts take part, and it is their mean" };
export const distillationLoss = distillationLossVariant({ klOverAllPositions: true });
