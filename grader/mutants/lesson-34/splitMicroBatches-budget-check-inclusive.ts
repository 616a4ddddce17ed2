import type { MutantInfo } from "../../engine/types.js";
import { microBatchVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "splitMicroBatches",
  mistake: "a sequence of exactly maxTokensPerMb tokens was refused; only a sequence longer than the budget is an error (a micro-batch may hold exactly the budget)",
};
export const splitMicroBatches = microBatchVariant({ budgetCheckInclusive: true });
