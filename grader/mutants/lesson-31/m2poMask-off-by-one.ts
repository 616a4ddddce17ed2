import { maskVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "m2poMask", mistake: "one token too many was masked: k, the index of the first suffix below τ, is the number of tokens to mask" };
export const m2poMask = maskVariant({ offByOne: true });
