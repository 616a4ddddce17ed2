import type { MutantInfo } from "../../engine/types.js";
import { klVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "approxKl",
  mistake: "divide by the number of kept tokens (the mask's sum), not by every position: padding dilutes the KL",
};
export const approxKl = klVariant({ denominator: "all" });
