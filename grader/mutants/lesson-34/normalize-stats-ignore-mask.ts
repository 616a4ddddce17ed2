import type { MutantInfo } from "../../engine/types.js";
import { normalizeVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "normalize", mistake: "the mean and std counted masked-out elements: pool only the elements where the mask is 1" };
export const normalize = normalizeVariant({ statsIgnoreMask: true });
