import { maskVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "m2poMask", mistake: "padding tokens came back as true; the result must be false wherever lossMask is false" };
export const m2poMask = maskVariant({ paddingKept: true });
