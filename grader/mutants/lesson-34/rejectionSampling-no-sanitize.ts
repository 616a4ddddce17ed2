import type { MutantInfo } from "../../engine/types.js";
import { rejectionVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "rejectionSampling", mistake: "a non-finite log-ratio (e.g. a −inf log-prob) must be replaced by 0 before it is used" };
export const rejectionSampling = rejectionVariant({ noSanitize: true });
