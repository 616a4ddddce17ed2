import { maskVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "m2poMask", mistake: "the smallest second moments were masked; sort in descending order and mask the largest" };
export const m2poMask = maskVariant({ smallestFirst: true });
