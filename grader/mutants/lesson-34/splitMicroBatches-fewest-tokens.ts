import type { MutantInfo } from "../../engine/types.js";
import { microBatchVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "splitMicroBatches", mistake: "AReaL adds a sequence to the fitting micro-batch with the fewest sequences; token sums only break ties" };
export const splitMicroBatches = microBatchVariant({ fewestTokens: true });
