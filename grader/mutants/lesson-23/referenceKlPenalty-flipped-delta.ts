import { klVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "referenceKlPenalty", mistake: "δ = policy − ref; the k3 estimator needs δ = ref − policy (it is not symmetric)" };
export const referenceKlPenalty = klVariant({ flippedDelta: true });
