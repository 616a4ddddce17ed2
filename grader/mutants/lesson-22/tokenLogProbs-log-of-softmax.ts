import type { MutantInfo } from "../../engine/types.js";
import { tokenLogProbsVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "tokenLogProbs", mistake: "log(softmax(z)) gives −Infinity once a probability underflows to 0 (logit spreads beyond about 100): use tf.logSoftmax, which subtracts the maximum first" };
export const tokenLogProbs = tokenLogProbsVariant("log-of-softmax");
