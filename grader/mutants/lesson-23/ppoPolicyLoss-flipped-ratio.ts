import { policyVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "ppoPolicyLoss", mistake: "the ratio is exp(old − new); it must be π_new/π_old = exp(new − old)" };
export const ppoPolicyLoss = policyVariant({ flippedRatio: true });
