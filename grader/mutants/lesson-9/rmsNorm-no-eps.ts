import { rmsNormVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "rmsNorm", mistake: "ε is missing: a row of zeros divides 0 by 0 and gives NaN; add ε inside the square root" };
export const rmsNorm = rmsNormVariant({ noEps: true });
