import type { MutantInfo } from "../../engine/types.js";
import { mismatchVariant } from "./_sources.js";

export const mutant: MutantInfo = {
  exercise: "mismatchKl",
  mistake: "the Taylor estimator is (log r)²/2: the second-order term of the KL carries a half",
};
export const mismatchKl = mismatchVariant({ taylorNoHalf: true });
