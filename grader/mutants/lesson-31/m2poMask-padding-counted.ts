import { maskVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "m2poMask", mistake: "padding tokens took part in the sort and the means; only tokens where lossMask is true count" };
export const m2poMask = maskVariant({ paddingCounted: true });
