import { residualVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "preNormResidual", mistake: "the sublayer read x itself; it reads rmsNorm(x, normWeight, eps)" };
export const preNormResidual = residualVariant({ noNorm: true });
