import { clipVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "clipGradNorm", mistake: "each gradient was clipped by its own norm: clipping uses one global norm over all parameters" };
export const clipGradNorm = clipVariant({ perTensor: true });
