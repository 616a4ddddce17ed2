import type { MutantInfo } from "../../engine/types.js";
import { advantageVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "arealAdvantages", mistake: "the KL reward is −kl_ctl·KL: moving away from the reference must cost reward" };
export const arealAdvantages = advantageVariant({ klSignFlipped: true });
