import type { MutantInfo } from "../../engine/types.js";
import { advantageVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "arealAdvantages", mistake: "at masked positions the running value and advantage carry over unchanged; only mask-true positions update them" };
export const arealAdvantages = advantageVariant({ noCarry: true });
