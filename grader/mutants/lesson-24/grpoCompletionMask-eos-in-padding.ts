import type { MutantInfo } from "../../engine/types.js";
import { completionMaskVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "grpoCompletionMask", mistake: "an EOS id inside the padding ended the answer: only real tokens (padMask = 1) can be the EOS" };
export const grpoCompletionMask = completionMaskVariant("eos-in-padding");
