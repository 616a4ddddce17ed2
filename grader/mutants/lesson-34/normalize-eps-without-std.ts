import type { MutantInfo } from "../../engine/types.js";
import { normalizeVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "normalize", mistake: "with stdLevel \"none\" the divisor is exactly 1: eps is dropped as well" };
export const normalize = normalizeVariant({ epsWithoutStd: true });
