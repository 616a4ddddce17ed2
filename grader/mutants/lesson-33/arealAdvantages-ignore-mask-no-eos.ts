import type { MutantInfo } from "../../engine/types.js";
import { advantageVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "arealAdvantages", mistake: "with maskNoEosWithZero, rows that fill the window (no EOS) get no outcome reward" };
export const arealAdvantages = advantageVariant({ ignoreMaskNoEos: true });
