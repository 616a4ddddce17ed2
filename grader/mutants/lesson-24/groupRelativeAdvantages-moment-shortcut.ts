import type { MutantInfo } from "../../engine/types.js";
import { advantagesVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "groupRelativeAdvantages",
  mistake: "the variance was computed as E[r²] − μ², which cancels catastrophically in float32 (negative for a tied group, so the square root is NaN); take the mean of (r − μ)²",
};
export const groupRelativeAdvantages = advantagesVariant("moment-shortcut");
