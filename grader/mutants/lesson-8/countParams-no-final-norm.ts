import { countVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "countParams", mistake: "the final RMSNorm after the last block (H weights) is missing from norms" };
export const countParams = countVariant({ noFinalNorm: true });
