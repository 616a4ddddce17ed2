import type { MutantInfo } from "../../engine/types.js";
import { distillationLossVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "distillationLoss", mistake: "the KL used log p = log(softmax(teacher / T)): where a teacher probability underflows to 0 that is 0 · (−Infinity) = NaN; take log p from tf.logSoftmax (PyTorch's kl_div counts 0 · log 0 as 0)" };
export const distillationLoss = distillationLossVariant({ klLogOfProbs: true });
