import type { MutantInfo } from "../../engine/types.js";
import { klVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "tokenKlPenalty", mistake: "the plain log-ratio (k1) was used; MiniMind uses the k3 form exp(δ) − δ − 1, which is never negative" };
export const tokenKlPenalty = klVariant("k1");
