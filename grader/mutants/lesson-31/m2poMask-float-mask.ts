import { maskVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "m2poMask", mistake: "the mask came back as float32 0/1; return a bool tensor like the loss mask" };
export const m2poMask = maskVariant({ floatMask: true });
