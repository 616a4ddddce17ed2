import type { MutantInfo } from "../../engine/types.js";
import { normalizeVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "normalize", mistake: "when the mask keeps nothing, AReaL returns x unchanged, not zeros" };
export const normalize = normalizeVariant({ noAllMaskedReturn: true });
