import { ffnVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "feedForward", mistake: "the up branch is missing: SwiGLU multiplies silu(gate(x)) by up(x) before down" };
export const feedForward = ffnVariant({ noUp: true });
