import { maskVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "m2poMask", mistake: "a suffix mean equal to τ was accepted; AReaL stops at the first suffix whose mean is strictly below τ" };
export const m2poMask = maskVariant({ nonStrict: true });
