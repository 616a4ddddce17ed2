import { ffnVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "feedForward", mistake: "SiLU went on the up branch; it goes on the gate branch: down(silu(gate(x)) ⊙ up(x))" };
export const feedForward = ffnVariant({ siluOnUp: true });
