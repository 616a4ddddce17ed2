import { policyVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "ppoPolicyLoss", mistake: "the ratio is never clipped, so one batch can push the policy arbitrarily far" };
export const ppoPolicyLoss = policyVariant({ noClip: true });
