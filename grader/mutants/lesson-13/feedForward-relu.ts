import { ffnVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "feedForward", mistake: "ReLU was used; MiniMind's hidden_act is silu: z·σ(z)" };
export const feedForward = ffnVariant({ relu: true });
