import type { MutantInfo } from "../../engine/types.js";
import { completionMaskVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "grpoCompletionMask", mistake: "padding before the EOS was kept: the mask is (j ≤ eosIndex) AND padMask" };
export const grpoCompletionMask = completionMaskVariant("no-pad-mask");
