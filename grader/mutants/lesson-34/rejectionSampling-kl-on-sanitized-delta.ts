import type { MutantInfo } from "../../engine/types.js";
import { rejectionVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "rejectionSampling",
  mistake: "the KL metric was computed from the sanitised log-ratio (non-finite set to 0), so a token whose behaviour log-prob is −Inf looked like KL 0 and was kept; AReaL takes the KL estimate from the raw log-ratio (+Inf, rejected) and sanitises only the weight",
};
export const rejectionSampling = rejectionVariant({ klOnSanitizedDelta: true });
