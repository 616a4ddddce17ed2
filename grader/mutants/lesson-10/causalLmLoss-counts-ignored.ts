import { lossVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "causalLmLoss", mistake: "the mean divides by every position; divide by the number of labels that are not ignoreIndex" };
export const causalLmLoss = lossVariant({ countIgnored: true });
