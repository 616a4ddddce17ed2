import type { MutantInfo } from "../../engine/types.js";
import { mismatchVariant } from "./_sources.js";

export const mutant: MutantInfo = {
  exercise: "mismatchKl",
  mistake: "AReaL's dual estimator here is r − 1 − log r with r = π_train/π_behave, not lesson 33's e^{−δ} − 1 + δ orientation",
};
export const mismatchKl = mismatchVariant({ dualReversed: true });
