import type { MutantInfo } from "../../engine/types.js";
import { attentionVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "attention", mistake: "the attention mask is ignored, so queries attend to padding tokens: add (1 − mask)·(−1e9) to the scores" };
export const attention = attentionVariant({ noPaddingMask: true });
