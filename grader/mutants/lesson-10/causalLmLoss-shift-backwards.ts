import { lossVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "causalLmLoss", mistake: "the shift goes the wrong way: pair logits[:, :-1] with labels[:, 1:], not logits[:, 1:] with labels[:, :-1]" };
export const causalLmLoss = lossVariant({ shiftBackwards: true });
