import type { MutantInfo } from "../../engine/types.js";
import { grpoVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "grpoPolicyLoss", mistake: "the ratio was detached: the value is right but only the KL term has a gradient; in GRPO the gradient flows through ρ (only CISPO stops it)" };
export const grpoPolicyLoss = grpoVariant({ ratioDetached: true });
