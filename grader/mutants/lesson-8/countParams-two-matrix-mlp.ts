import { countVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "countParams", mistake: "the MLP was counted with two matrices; SwiGLU has three: gate, up and down, 3·H·I" };
export const countParams = countVariant({ twoMatrixMlp: true });
