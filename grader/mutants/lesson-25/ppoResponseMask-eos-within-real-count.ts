import type { MutantInfo } from "../../engine/types.js";
import { maskVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "ppoResponseMask",
  mistake: "the EOS was searched only among the first Σ padMask positions, as if the real positions were a prefix: with a hole in the pad mask, a real EOS further on is missed",
};
export const ppoResponseMask = maskVariant({ eosWithinRealCount: true });
