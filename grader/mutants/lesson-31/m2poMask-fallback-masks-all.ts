import { maskVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "m2poMask", mistake: "with no suffix mean below τ every token was masked; AReaL masks n − 1 and keeps the token with the smallest m2" };
export const m2poMask = maskVariant({ fallbackMasksAll: true });
