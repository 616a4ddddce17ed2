import { countVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "countParams", mistake: "every expert was counted at intermediateSize; MoE experts are moeIntermediateSize wide" };
export const countParams = countVariant({ expertsUseDenseWidth: true });
