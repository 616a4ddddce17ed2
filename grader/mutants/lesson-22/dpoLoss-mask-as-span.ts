import type { MutantInfo } from "../../engine/types.js";
import { dpoLossVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "dpoLoss", mistake: "every position from the first to the last masked token was summed, so the user turn between two assistant turns (a hole in the mask) counted: multiply by the mask itself" };
export const dpoLoss = dpoLossVariant({ maskAsSpan: true });
