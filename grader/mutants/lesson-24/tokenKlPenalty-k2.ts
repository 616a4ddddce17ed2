import type { MutantInfo } from "../../engine/types.js";
import { klVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "tokenKlPenalty", mistake: "δ²/2 (k2) was used; MiniMind uses k3 = exp(δ) − δ − 1" };
export const tokenKlPenalty = klVariant("k2");
