import type { MutantInfo } from "../../engine/types.js";
import { clipVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "clipFraction",
  mistake: "count both sides of the window: |ρ − 1| > ε includes ratios below 1 − ε",
};
export const clipFraction = clipVariant({ upperOnly: true });
