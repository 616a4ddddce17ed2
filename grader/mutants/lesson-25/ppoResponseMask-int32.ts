import type { MutantInfo } from "../../engine/types.js";
import { maskVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "ppoResponseMask",
  mistake: "the mask multiplies float32 losses: return it as float32 0/1, not int32 or bool",
};
export const ppoResponseMask = maskVariant({ int32: true });
