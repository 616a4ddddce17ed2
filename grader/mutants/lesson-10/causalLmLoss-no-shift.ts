import { lossVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "causalLmLoss", mistake: "the logits were scored against the label at the same position; logits[:, t] predicts labels[:, t + 1]: drop the last logit and the first label" };
export const causalLmLoss = lossVariant({ noShift: true });
