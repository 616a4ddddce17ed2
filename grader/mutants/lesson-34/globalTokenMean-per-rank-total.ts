import type { MutantInfo } from "../../engine/types.js";
import { tokenMeanVariant } from "./_token-mean.js";

export const mutant: MutantInfo = {
  exercise: "globalTokenMean",
  mistake: "the loss weight is all-reduced: each micro-batch is weighted by its tokens over the tokens of ALL ranks, not of its own rank",
};
export const globalTokenMean = tokenMeanVariant({ perRankTotal: true });
