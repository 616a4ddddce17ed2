import type { MutantInfo } from "../../engine/types.js";
import { clipVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "clipFraction",
  mistake: "a ratio exactly on 1 ± ε is not clipped: count |ρ − 1| > ε, strictly",
};
export const clipFraction = clipVariant({ atBoundary: true });
