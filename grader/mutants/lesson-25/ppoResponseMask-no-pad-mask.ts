import type { MutantInfo } from "../../engine/types.js";
import { maskVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "ppoResponseMask",
  mistake: "the mask is (j < length) AND the pad mask: a row of padding only has length 1 after the clamp, yet must keep nothing",
};
export const ppoResponseMask = maskVariant({ noPadMask: true });
