import type { MutantInfo } from "../../engine/types.js";
import { klVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "tokenKlPenalty", mistake: "δ = policy − ref; the k3 estimator needs δ = ref − policy (it is not symmetric)" };
export const tokenKlPenalty = klVariant("flipped-delta");
