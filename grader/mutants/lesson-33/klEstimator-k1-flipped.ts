import type { MutantInfo } from "../../engine/types.js";
import { klVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "klEstimator", mistake: "k1 is δ = log p − log p_base, not log p_base − log p" };
export const klEstimator = klVariant({ k1Flipped: true });
