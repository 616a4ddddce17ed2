import type { MutantInfo } from "../../engine/types.js";
import { maskVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "ppoResponseMask",
  mistake: "without an EOS the length is the number of real (non-pad) positions, not the window R",
};
export const ppoResponseMask = maskVariant({ noEosFullWindow: true });
