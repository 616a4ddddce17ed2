import type { MutantInfo } from "../../engine/types.js";
import { microBatchVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "splitMicroBatches", mistake: "equal lengths are visited in index order (a stable descending sort)" };
export const splitMicroBatches = microBatchVariant({ tiesReversed: true });
