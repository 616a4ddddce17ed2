import type { MutantInfo } from "../../engine/types.js";
import { applyLoraVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "applyLora", mistake: "A was shaped [in, r]; A maps in features to r, so as a weight in nn.Linear's layout it is [r, in] (and B is [out, r])" };
export const applyLora = applyLoraVariant({ transposedA: true });
