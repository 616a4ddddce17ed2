import type { MutantInfo } from "../../engine/types.js";
import { clipVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "clipFraction",
  mistake: "divide by the number of kept tokens (the mask's sum), not by every position",
};
export const clipFraction = clipVariant({ denominator: "all" });
