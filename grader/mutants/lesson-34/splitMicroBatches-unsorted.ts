import type { MutantInfo } from "../../engine/types.js";
import { microBatchVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "splitMicroBatches", mistake: "return each micro-batch's indices sorted, and the micro-batches sorted by their first index" };
export const splitMicroBatches = microBatchVariant({ unsorted: true });
