import { lossVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "decoupledPpoLoss", mistake: "at sequence level each token kept its own advantage; GSPO gives every token its row's mean advantage" };
export const decoupledPpoLoss = lossVariant({ sequenceTokenAdvantages: true });
