import { policyVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = {
  exercise: "ppoPolicyLoss",
  mistake: "the loss was computed on plain numbers (dataSync) and returned as a new scalar: the value is right, but no gradient reaches newLogps, so the policy never learns; keep it in tensor ops",
};
export const ppoPolicyLoss = policyVariant({ noGradient: true });
