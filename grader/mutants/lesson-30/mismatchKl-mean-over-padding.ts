import type { MutantInfo } from "../../engine/types.js";
import { mismatchVariant } from "./_sources.js";

export const mutant: MutantInfo = {
  exercise: "mismatchKl",
  mistake: "average over the valid tokens only: padding and prompt positions are not in the denominator",
};
export const mismatchKl = mismatchVariant({ meanOverAll: true });
