import type { MutantInfo } from "../../engine/types.js";
import { klVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "klEstimator", mistake: "k3 is e^{−δ} − 1 + δ with δ = log p − log p_base; e^δ − 1 − δ estimates the KL in the other direction" };
export const klEstimator = klVariant({ k3Unflipped: true });
