import type { MutantInfo } from "../../engine/types.js";
import { advantagesVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "groupRelativeAdvantages", mistake: "the eps argument is ignored (1e-4 is written into the formula): a caller's eps must be used" };
export const groupRelativeAdvantages = advantagesVariant("eps-ignored");
