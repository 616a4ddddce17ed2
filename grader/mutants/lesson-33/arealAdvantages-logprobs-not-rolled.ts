import type { MutantInfo } from "../../engine/types.js";
import { advantageVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "arealAdvantages", mistake: "the inference log-probs are in token coordinates: roll them by −1 before comparing them with refLogp" };
export const arealAdvantages = advantageVariant({ logprobsNotRolled: true });
