import { residualVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "preNormResidual", mistake: "that is post-norm, rmsNorm(x + sublayer(x)); MiniMind normalises the sublayer's input: x + sublayer(rmsNorm(x))" };
export const preNormResidual = residualVariant({ postNorm: true });
