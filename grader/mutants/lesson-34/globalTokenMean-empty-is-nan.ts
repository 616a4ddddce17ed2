import type { MutantInfo } from "../../engine/types.js";
import { tokenMeanVariant } from "./_token-mean.js";

export const mutant: MutantInfo = {
  exercise: "globalTokenMean",
  mistake: "a micro-batch with no valid token contributes nothing (AReaL returns a zero loss for it), never 0/0",
};
export const globalTokenMean = tokenMeanVariant({ emptyIsNan: true });
