import { lossVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "decoupledPpoLoss", mistake: "epsClipHigher was ignored; the upper clip bound is 1 + epsClipHigher (it defaults to epsClip only when omitted)" };
export const decoupledPpoLoss = lossVariant({ symmetricClip: true });
