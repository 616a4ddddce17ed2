import { lossVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "causalLmLoss", mistake: "log(softmax(z)) was taken in two steps: a logit more than ≈ 100 below its row's max has softmax 0 in float32 and log 0 = −∞; use logSoftmax (z − max − log Σ exp(z − max))" };
export const causalLmLoss = lossVariant({ logOfSoftmax: true });
