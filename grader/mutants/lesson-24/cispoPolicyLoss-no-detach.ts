import type { MutantInfo } from "../../engine/types.js";
import { cispoVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "cispoPolicyLoss", mistake: "the weight min(ρ, ε_high) was not detached: the value is right but the gradient also flows through ρ; wrap it in stopGradient" };
export const cispoPolicyLoss = cispoVariant({ noDetach: true });
