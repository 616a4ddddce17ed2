import { lossVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "causalLmLoss", mistake: "the raw logit was used as a log-probability; apply logSoftmax over the vocabulary first" };
export const causalLmLoss = lossVariant({ rawLogits: true });
