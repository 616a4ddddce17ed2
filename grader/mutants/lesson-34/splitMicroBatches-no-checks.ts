import type { MutantInfo } from "../../engine/types.js";
import { microBatchVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "splitMicroBatches",
  mistake: "neither error was raised: a sequence longer than maxTokensPerMb, or fewer sequences than nMbs, must throw instead of returning micro-batches",
};
export const splitMicroBatches = microBatchVariant({ noChecks: true });
