import type { MutantInfo } from "../../engine/types.js";
import { normalizeVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "normalize", mistake: "eps is added to the std, (x − mean)/(std + eps), not to the variance under the square root" };
export const normalize = normalizeVariant({ epsInsideSqrt: true });
