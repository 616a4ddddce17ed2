import type { MutantInfo } from "../../engine/types.js";
import { distillationLossVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "distillationLoss", mistake: "the cross-entropy used logits divided by T; only the distillation term is softened, the label term uses the raw logits" };
export const distillationLoss = distillationLossVariant({ ceAtTemperature: true });
