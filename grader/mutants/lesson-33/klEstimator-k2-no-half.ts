import type { MutantInfo } from "../../engine/types.js";
import { klVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "klEstimator", mistake: "k2 is δ²/2: the factor 1/2 is missing" };
export const klEstimator = klVariant({ k2NoHalf: true });
