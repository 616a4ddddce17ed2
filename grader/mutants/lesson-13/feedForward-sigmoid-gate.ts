import { ffnVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "feedForward", mistake: "the gate used σ(z); SiLU is z·σ(z), so multiply by the gate's input as well" };
export const feedForward = ffnVariant({ sigmoidGate: true });
