import type { MutantInfo } from "../../engine/types.js";
import { dpoLossVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "dpoLoss", mistake: "chosen and rejected are swapped: the first half of the batch is chosen, the second half rejected" };
export const dpoLoss = dpoLossVariant({ swappedHalves: true });
