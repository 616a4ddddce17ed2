import { lossVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "causalLmLoss", mistake: "that is a mean of per-sequence means; F.cross_entropy takes one mean over all counted tokens of the batch" };
export const causalLmLoss = lossVariant({ perSequenceMean: true });
