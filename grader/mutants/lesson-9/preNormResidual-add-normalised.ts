import { residualVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "preNormResidual", mistake: "the residual added the normalised h; add the original x: x + sublayer(rmsNorm(x))" };
export const preNormResidual = residualVariant({ addNormalised: true });
