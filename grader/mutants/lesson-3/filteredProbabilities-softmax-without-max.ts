import { filterVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "filteredProbabilities", mistake: "the softmax was exp(s)/Σexp(s) without subtracting the row's max: a score above ≈ 88 overflows float32 to Infinity and gives NaN" };
export const filteredProbabilities = filterVariant({ naiveSoftmax: true });
