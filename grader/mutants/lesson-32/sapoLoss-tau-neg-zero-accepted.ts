import type { MutantInfo } from "../../engine/types.js";
import { sapoVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "sapoLoss",
  mistake: "τ_neg = 0 was accepted (only a negative τ_neg refused); both temperatures must be strictly positive, and τ = 0 would divide by zero in 4/τ",
};
export const sapoLoss = sapoVariant({ tauNegZeroAccepted: true });
