import type { MutantInfo } from "../../engine/types.js";
import { distillationLossVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "distillationLoss", mistake: "only the teacher was softened; the student's logits are divided by the same temperature T before the log-softmax" };
export const distillationLoss = distillationLossVariant({ studentAtT1: true });
