import { policyVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "ppoPolicyLoss", mistake: "the loss was averaged over all B·R positions; divide by the number of masked-in tokens" };
export const ppoPolicyLoss = policyVariant({ denominator: "all" });
