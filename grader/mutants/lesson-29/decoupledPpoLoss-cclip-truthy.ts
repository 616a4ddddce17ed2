import { lossVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = {
  exercise: "decoupledPpoLoss",
  mistake: "the dual clip was switched on with `if (cClip)`, so cClip = 0 slipped through without an error; any cClip that is given (0 included) must be checked, and only values above 1 accepted",
};
export const decoupledPpoLoss = lossVariant({ cClipTruthy: true });
