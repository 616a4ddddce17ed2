import type { MutantInfo } from "../../engine/types.js";
import { grpoVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "grpoPolicyLoss", mistake: "max of ρA and clip(ρ)A takes the optimistic bound; GRPO keeps min(ρA, clip(ρ)A) before negating" };
export const grpoPolicyLoss = grpoVariant({ maxInsteadOfMin: true });
