import { lossVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "causalLmLoss", mistake: "the number of scored tokens was counted on the labels before the shift (labels[:, :−1]) instead of on the shifted targets labels[:, 1:]" };
export const causalLmLoss = lossVariant({ countBeforeShift: true });
