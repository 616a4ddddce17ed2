import type { MutantInfo } from "../../engine/types.js";
import { gaeVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "maskedGae", mistake: "A_t = δ_t + γ·A_{t+1} leaves out λ (that is GAE with λ = 1)" };
export const maskedGae = gaeVariant({ noLambda: true });
