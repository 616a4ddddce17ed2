import { lossVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "decoupledPpoLoss", mistake: "importanceWeight was left non-zero on masked-out tokens; AReaL zeroes the ratio wherever the loss mask is false" };
export const decoupledPpoLoss = lossVariant({ weightUnmasked: true });
