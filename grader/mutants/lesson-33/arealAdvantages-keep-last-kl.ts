import type { MutantInfo } from "../../engine/types.js";
import { advantageVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "arealAdvantages", mistake: "the reward at seqlen − 1 (after the last token) must be set to 0 before the outcome reward is added" };
export const arealAdvantages = advantageVariant({ keepLastKl: true });
