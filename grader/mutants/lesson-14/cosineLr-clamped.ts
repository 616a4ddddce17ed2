import { lrVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "cosineLr", mistake: "steps past the end are clamped at the floor; MiniMind's formula has no clamp (the cosine comes back up)" };
export const cosineLr = lrVariant({ clamped: true });
