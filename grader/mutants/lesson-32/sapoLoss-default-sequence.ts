import type { MutantInfo } from "../../engine/types.js";
import { sapoVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "sapoLoss",
  mistake: "an omitted importanceSamplingLevel was taken as \"sequence\"; AReaL's default is \"token\" (one ratio per token)",
};
export const sapoLoss = sapoVariant({ defaultSequence: true });
