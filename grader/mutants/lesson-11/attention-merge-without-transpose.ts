import type { MutantInfo } from "../../engine/types.js";
import { attentionVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "attention", mistake: "the heads are merged by reshaping [B, Hq, S, D] straight to [B, S, Hq·D]; move the head axis back first (transpose to [B, S, Hq, D])" };
export const attention = attentionVariant({ mergeWithoutTranspose: true });
