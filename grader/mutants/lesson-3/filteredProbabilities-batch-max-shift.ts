import { filterVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "filteredProbabilities", mistake: "the softmax subtracted the max of the whole batch (tf.max without an axis) instead of each row's: a row far below another underflows to 0/0 = NaN" };
export const filteredProbabilities = filterVariant({ batchMaxShift: true });
