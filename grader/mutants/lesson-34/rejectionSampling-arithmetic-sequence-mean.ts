import type { MutantInfo } from "../../engine/types.js";
import { rejectionVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "rejectionSampling", mistake: "at sequence level the ratio is pooled in log space (a geometric mean exp(mean δ)), not as the arithmetic mean of the ratios" };
export const rejectionSampling = rejectionVariant({ arithmeticSequenceMean: true });
