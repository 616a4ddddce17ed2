import type { MutantInfo } from "../../engine/types.js";
import { tokenLogProbsVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "tokenLogProbs", mistake: "the raw logit at the label is not a log-probability: subtract log Σ exp(logits) over the vocabulary first (log_softmax)" };
export const tokenLogProbs = tokenLogProbsVariant("raw-logits");
