import type { MutantInfo } from "../../engine/types.js";
import { attentionVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "attention", mistake: "the scores are divided by head_dim instead of √head_dim" };
export const attention = attentionVariant({ scaleByD: true });
