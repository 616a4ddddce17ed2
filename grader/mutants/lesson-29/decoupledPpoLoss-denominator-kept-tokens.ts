import { lossVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "decoupledPpoLoss", mistake: "the loss was divided by the tokens left after rejection sampling; AReaL divides by the count of the original loss mask" };
export const decoupledPpoLoss = lossVariant({ denominatorKept: true });
