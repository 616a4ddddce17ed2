import { rmsNormVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "rmsNorm", mistake: "one RMS was taken over the whole tensor; take it over the last dimension only, one per position (keepDims)" };
export const rmsNorm = rmsNormVariant({ wholeTensor: true });
