import type { MutantInfo } from "../../engine/types.js";
import { rejectionVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "rejectionSampling", mistake: "a sequence mean divides by the row's valid tokens (at least 1), not by the padded width T" };
export const rejectionSampling = rejectionVariant({ meanOverPadding: true });
