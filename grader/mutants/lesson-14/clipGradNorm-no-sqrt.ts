import { clipVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "clipGradNorm", mistake: "the squared norm Σg² was used as the norm: take its square root" };
export const clipGradNorm = clipVariant({ noSqrt: true });
