import { countVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "countParams", mistake: "active counted every expert; a token uses only numExpertsPerTok of them: subtract L·(E − k)·3·H·I_e" };
export const countParams = countVariant({ allExpertsActive: true });
