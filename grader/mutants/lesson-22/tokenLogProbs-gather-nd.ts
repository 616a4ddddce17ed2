import type { MutantInfo } from "../../engine/types.js";
import { tokenLogProbsVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "tokenLogProbs", mistake: "the values are right but tf.gatherND has no gradient in TensorFlow.js: pick the label with a one-hot mask and a sum over the vocabulary" };
export const tokenLogProbs = tokenLogProbsVariant("gather-nd");
