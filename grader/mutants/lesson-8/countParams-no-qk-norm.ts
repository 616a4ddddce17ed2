import { countVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "countParams", mistake: "the q_norm and k_norm gains (headDim each, in every layer) are missing from norms" };
export const countParams = countVariant({ noQkNorm: true });
