import type { MutantInfo } from "../../engine/types.js";
import { tokenLogProbsVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "tokenLogProbs", mistake: "the log-softmax was taken over the sequence axis; normalise over the vocabulary, the last axis (dim=2)" };
export const tokenLogProbs = tokenLogProbsVariant("sequence-axis");
