import type { MutantInfo } from "../../engine/types.js";
import { grpoVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "grpoPolicyLoss", mistake: "the ratio is never clipped to [1 − ε, 1 + ε], so one batch can push the policy arbitrarily far" };
export const grpoPolicyLoss = grpoVariant({ noClip: true });
