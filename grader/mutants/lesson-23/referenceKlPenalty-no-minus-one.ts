import { klVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "referenceKlPenalty", mistake: "the − 1 of exp(u) − u − 1 is missing, so identical policies give a penalty of 1 instead of 0" };
export const referenceKlPenalty = klVariant({ noMinusOne: true });
