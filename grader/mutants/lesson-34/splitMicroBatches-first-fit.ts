import type { MutantInfo } from "../../engine/types.js";
import { microBatchVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "splitMicroBatches", mistake: "not the first micro-batch that fits: the fitting one with the fewest sequences (then fewest tokens)" };
export const splitMicroBatches = microBatchVariant({ firstFit: true });
