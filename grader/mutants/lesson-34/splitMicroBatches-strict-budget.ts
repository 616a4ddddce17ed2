import type { MutantInfo } from "../../engine/types.js";
import { microBatchVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "splitMicroBatches", mistake: "a micro-batch may hold exactly maxTokensPerMb tokens: the test is Σ + len ≤ budget" };
export const splitMicroBatches = microBatchVariant({ strictBudget: true });
