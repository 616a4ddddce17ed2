import type { MutantInfo } from "../../engine/types.js";
import { maskVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "ppoResponseMask",
  mistake: "look for EOS only among real (pad mask = 1) positions: an EOS id in the padding does not end the response",
};
export const ppoResponseMask = maskVariant({ eosInPadding: true });
