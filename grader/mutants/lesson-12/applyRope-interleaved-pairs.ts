import type { MutantInfo } from "../../engine/types.js";
import { rotationVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "applyRope", mistake: "neighbouring dimensions (0, 1), (2, 3), … were paired while the table is laid out for halves, so the two numbers of a pair turn by different angles (not a rotation, and not the interleaved RoPE either); MiniMind pairs dimension j with j + D/2 (rotate_half splits the head into halves)" };
export const applyRope = rotationVariant("interleavedPairs");
