import type { MutantInfo } from "../../engine/types.js";
import { maskVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "ppoResponseMask",
  mistake: "the response length is the first EOS index + 1: the EOS token stays in the mask so the policy learns to stop",
};
export const ppoResponseMask = maskVariant({ eosExcluded: true });
