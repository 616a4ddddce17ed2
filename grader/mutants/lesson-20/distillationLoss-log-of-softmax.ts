import type { MutantInfo } from "../../engine/types.js";
import { distillationLossVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "distillationLoss", mistake: "the student's log-probabilities were taken as log(softmax(z)), which is −Infinity once a probability underflows (logit spreads beyond about 100): use tf.logSoftmax" };
export const distillationLoss = distillationLossVariant({ logOfSoftmax: true });
