import { rmsNormVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "rmsNorm", mistake: "the RMS came from tf.norm(x)/√H: right values, but the norm's gradient at a row of zeros is 0/0 = NaN; square and average x directly" };
export const rmsNorm = rmsNormVariant({ viaNorm: true });
