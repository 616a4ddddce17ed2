import { rmsNormVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "rmsNorm", mistake: "ε was added after the square root; it goes inside: 1/√(mean(x²) + ε)" };
export const rmsNorm = rmsNormVariant({ epsOutsideSqrt: true });
