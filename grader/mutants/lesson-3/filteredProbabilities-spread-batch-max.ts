import { filterVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "filteredProbabilities", mistake: "the batch's max was taken with Math.max(...values): spreading hundreds of thousands of arguments throws a RangeError; reduce per row with tensor ops (or a loop)" };
export const filteredProbabilities = filterVariant({ spreadBatchMax: true });
