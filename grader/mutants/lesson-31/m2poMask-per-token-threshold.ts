import { maskVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "m2poMask", mistake: "each token was compared with τ on its own; M2PO masks the largest tokens only until the mean of the rest falls below τ, so a token above τ can stay" };
export const m2poMask = maskVariant({ perToken: true });
