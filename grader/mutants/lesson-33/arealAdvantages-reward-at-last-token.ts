import type { MutantInfo } from "../../engine/types.js";
import { advantageVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "arealAdvantages", mistake: "the outcome reward goes to position max(seqlen − 2, 0), where the last token is predicted, not seqlen − 1" };
export const arealAdvantages = advantageVariant({ rewardAtLastToken: true });
