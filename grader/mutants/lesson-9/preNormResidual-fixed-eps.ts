import { residualVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "preNormResidual", mistake: "the norm used a fixed ε (1e-5, MiniMind's config default) instead of the eps passed in" };
export const preNormResidual = residualVariant({ fixedEps: true });
