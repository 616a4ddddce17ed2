import type { MutantInfo } from "../../engine/types.js";
import { completionMaskVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "grpoCompletionMask",
  mistake: "the EOS was searched only among the first Σ padMask positions, as if the real tokens were a prefix; with a hole in the pad mask a real EOS further on is missed",
};
export const grpoCompletionMask = completionMaskVariant("eos-within-real-count");
