import { ffnVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "feedForward", mistake: "silu was written as z / (1 + exp(−z)): right values, but exp(−z) overflows to Infinity for a pre-activation below ≈ −88 and the gradient there is NaN; use z·sigmoid(z)" };
export const feedForward = ffnVariant({ siluAsDivision: true });
