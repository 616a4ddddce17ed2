import type { MutantInfo } from "../../engine/types.js";
import { tokenLogProbsVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "tokenLogProbs", mistake: "these are probabilities, not log-probabilities: take log_softmax over the vocabulary, not softmax" };
export const tokenLogProbs = tokenLogProbsVariant("softmax-probs");
