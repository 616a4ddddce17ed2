import type { MutantInfo } from "../../engine/types.js";
import { dpoLossVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "dpoLoss", mistake: "tf.logSigmoid's gradient reads its input after tf.tidy has freed it, so backpropagation crashes; write −log σ(x) as tf.softplus(−x)" };
export const dpoLoss = dpoLossVariant({ tfLogSigmoid: true });
