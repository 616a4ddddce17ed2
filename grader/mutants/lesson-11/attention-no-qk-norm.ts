import type { MutantInfo } from "../../engine/types.js";
import { attentionVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "attention", mistake: "q_norm and k_norm are skipped: each head of q and k must go through RMSNorm (with its gain) before RoPE" };
export const attention = attentionVariant({ noQkNorm: true });
