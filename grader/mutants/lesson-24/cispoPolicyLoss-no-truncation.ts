import type { MutantInfo } from "../../engine/types.js";
import { cispoVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "cispoPolicyLoss", mistake: "the weight ρ was never capped: huge ratios get huge weights; use min(ρ, ε_high)" };
export const cispoPolicyLoss = cispoVariant({ noTruncation: true });
