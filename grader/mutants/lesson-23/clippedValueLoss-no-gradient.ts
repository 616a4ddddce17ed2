import { valueVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = {
  exercise: "clippedValueLoss",
  mistake: "the loss was computed on plain numbers (dataSync) and returned as a new scalar: the value is right, but no gradient reaches the critic's values; keep it in tensor ops",
};
export const clippedValueLoss = valueVariant({ noGradient: true });
