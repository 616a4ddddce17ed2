import type { MutantInfo } from "../../engine/types.js";
import { rejectionVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "rejectionSampling", mistake: "the ratio is π_prox/π_behave: δ = proximal − old log-probs, not old − proximal" };
export const rejectionSampling = rejectionVariant({ flippedRatio: true });
