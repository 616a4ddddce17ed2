import type { MutantInfo } from "../../engine/types.js";
import { rejectionVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "rejectionSampling", mistake: "at sequence level with the ratio metric every token's weight becomes the row's geometric-mean ratio" };
export const rejectionSampling = rejectionVariant({ perTokenWeight: true });
