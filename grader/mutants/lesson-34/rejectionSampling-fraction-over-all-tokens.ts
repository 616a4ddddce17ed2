import type { MutantInfo } from "../../engine/types.js";
import { rejectionVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "rejectionSampling", mistake: "filteredFraction divides by the number of valid tokens (mask = 1), not by B·T" };
export const rejectionSampling = rejectionVariant({ fractionOverAllTokens: true });
