import { lrVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "cosineLr", mistake: "a straight-line decay: MiniMind's curve is a half cosine, flat at both ends" };
export const cosineLr = lrVariant({ linear: true });
