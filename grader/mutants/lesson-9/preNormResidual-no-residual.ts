import { residualVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "preNormResidual", mistake: "the residual connection is missing: add x back to the sublayer's output" };
export const preNormResidual = residualVariant({ noResidual: true });
