import { lossVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "causalLmLoss", mistake: "log Σ exp(z) was computed without subtracting the row's max: exp overflows float32 above ≈ 88 and the loss becomes NaN" };
export const causalLmLoss = lossVariant({ naiveLogSumExp: true });
