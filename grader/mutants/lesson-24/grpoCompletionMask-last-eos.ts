import type { MutantInfo } from "../../engine/types.js";
import { completionMaskVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "grpoCompletionMask", mistake: "the last EOS of a row was used; the answer ends at the first one" };
export const grpoCompletionMask = completionMaskVariant("last-eos");
