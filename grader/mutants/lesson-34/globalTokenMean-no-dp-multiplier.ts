import type { MutantInfo } from "../../engine/types.js";
import { tokenMeanVariant } from "./_token-mean.js";

export const mutant: MutantInfo = {
  exercise: "globalTokenMean",
  mistake: "data-parallel training averages gradients over the R ranks, so AReaL multiplies each scale by dp_size to undo it",
};
export const globalTokenMean = tokenMeanVariant({ noDpMultiplier: true });
