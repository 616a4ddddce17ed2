import type { MutantInfo } from "../../engine/types.js";
import { klVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "tokenKlPenalty", mistake: "the − 1 of exp(δ) − δ − 1 is missing, so identical policies give a penalty of 1 instead of 0" };
export const tokenKlPenalty = klVariant("no-minus-one");
