import type { MutantInfo } from "../../engine/types.js";
import { microBatchVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "splitMicroBatches", mistake: "first-fit *decreasing*: visit the longest sequences first" };
export const splitMicroBatches = microBatchVariant({ ascending: true });
