import type { MutantInfo } from "../../engine/types.js";
import { tokenMeanVariant } from "./_token-mean.js";

export const mutant: MutantInfo = {
  exercise: "globalTokenMean",
  mistake: "the step's loss is a mean over tokens, not over micro-batches: a mean of micro-batch means weights the tokens of short micro-batches up",
};
export const globalTokenMean = tokenMeanVariant({ meanOfMeans: true });
