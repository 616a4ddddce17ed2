import type { MutantInfo } from "../../engine/types.js";
import { distillationLossVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "distillationLoss", mistake: "the teacher's logits receive a gradient; the teacher is a fixed target (MiniMind computes it under no_grad and detaches its probabilities)" };
export const distillationLoss = distillationLossVariant({ teacherOnTape: true });
