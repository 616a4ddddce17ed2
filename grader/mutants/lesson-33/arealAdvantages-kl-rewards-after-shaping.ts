import type { MutantInfo } from "../../engine/types.js";
import { advantageVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "arealAdvantages", mistake: "klRewards is a copy taken before the zeroing at seqlen − 1 and the outcome reward" };
export const arealAdvantages = advantageVariant({ klRewardsAfterShaping: true });
