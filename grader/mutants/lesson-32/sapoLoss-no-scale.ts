import type { MutantInfo } from "../../engine/types.js";
import { sapoVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "sapoLoss", mistake: "the gate misses its 4/τ factor: without it the slope at r = 1 is τ/4, not 1" };
export const sapoLoss = sapoVariant({ noScale: true });
