import type { MutantInfo } from "../../engine/types.js";
import { microBatchVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "splitMicroBatches", mistake: "open new micro-batches until there are nMbs of them, even when the sequence would fit in an existing one" };
export const splitMicroBatches = microBatchVariant({ ignoresMinCount: true });
