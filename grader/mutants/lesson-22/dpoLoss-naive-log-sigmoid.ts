import type { MutantInfo } from "../../engine/types.js";
import { dpoLossVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "dpoLoss", mistake: "−log(sigmoid(x)) becomes Infinity once sigmoid(x) underflows to 0; compute −log σ(x) as softplus(−x)" };
export const dpoLoss = dpoLossVariant({ naiveLogSigmoid: true });
