import { klVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "referenceKlPenalty", mistake: "u = policy − ref; the k3 estimator needs u = ref − policy (it is not symmetric)" };
export const referenceKlPenalty = klVariant({ flippedDelta: true });
