import { lossVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "decoupledPpoLoss", mistake: "the dual-clip bound was c·A; it is c·|A|, which only bites on tokens with a negative advantage" };
export const decoupledPpoLoss = lossVariant({ dualClipSigned: true });
