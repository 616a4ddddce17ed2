import type { MutantInfo } from "../../engine/types.js";
import { advantageVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "arealAdvantages", mistake: "the loss mask must be rolled by −1 (position t then describes token t + 1) before GAE uses it" };
export const arealAdvantages = advantageVariant({ maskNotRolled: true });
