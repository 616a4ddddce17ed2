import type { MutantInfo } from "../../engine/types.js";
import { dpoLossVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "dpoLoss", mistake: "the reference log-ratio is missing: z = (π_c − π_r) − (ref_c − ref_r), not just π_c − π_r" };
export const dpoLoss = dpoLossVariant({ noReference: true });
