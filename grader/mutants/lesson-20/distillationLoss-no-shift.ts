import type { MutantInfo } from "../../engine/types.js";
import { distillationLossVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "distillationLoss", mistake: "position t was scored against label t; the logits at t predict the token at t + 1, so drop the last position's logits and the first label" };
export const distillationLoss = distillationLossVariant({ noShift: true });
