import type { MutantInfo } from "../../engine/types.js";
import { normalizeVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "normalize", mistake: "your std divides by n even when unbiased is true: use n − 1 (Bessel's correction), AReaL's default" };
export const normalize = normalizeVariant({ alwaysBiased: true });
