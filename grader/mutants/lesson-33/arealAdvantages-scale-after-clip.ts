import type { MutantInfo } from "../../engine/types.js";
import { advantageVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "arealAdvantages", mistake: "the order is clip((r + bias)·scale, ±clip): scale before clipping" };
export const arealAdvantages = advantageVariant({ scaleAfterClip: true });
