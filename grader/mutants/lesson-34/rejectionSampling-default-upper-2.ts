import type { MutantInfo } from "../../engine/types.js";
import { rejectionVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "rejectionSampling",
  mistake: "upper defaulted to 2; AReaL's default upper bound is 5 (REJECTION_DEFAULTS)",
};
export const rejectionSampling = rejectionVariant({ defaultUpper2: true });
