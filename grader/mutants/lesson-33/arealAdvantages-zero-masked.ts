import type { MutantInfo } from "../../engine/types.js";
import { advantageVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "arealAdvantages", mistake: "masked positions store the carried advantage, not 0" };
export const arealAdvantages = advantageVariant({ zeroMaskedAdvantages: true });
