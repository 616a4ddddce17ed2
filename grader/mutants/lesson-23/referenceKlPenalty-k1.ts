import { klVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "referenceKlPenalty", mistake: "the plain log-ratio (k1) was used; MiniMind uses the k3 form exp(u) − u − 1, which is never negative" };
export const referenceKlPenalty = klVariant({ k1: true });
