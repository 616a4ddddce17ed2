import { klVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "referenceKlPenalty", mistake: "dividing by Σmask without max(·, 1) gives NaN when every token is masked" };
export const referenceKlPenalty = klVariant({ denominator: "unclamped" });
