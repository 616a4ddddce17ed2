import type { MutantInfo } from "../../engine/types.js";
import { rejectionVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "rejectionSampling", mistake: "behaveImpWeight must be 0 wherever the returned loss mask is 0" };
export const rejectionSampling = rejectionVariant({ weightNotMasked: true });
