import type { MutantInfo } from "../../engine/types.js";
import { rejectionVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "rejectionSampling", mistake: "k3 is e^(−δ) − 1 + δ with δ = proximal − old; you computed e^δ − 1 − δ" };
export const rejectionSampling = rejectionVariant({ k3Reversed: true });
