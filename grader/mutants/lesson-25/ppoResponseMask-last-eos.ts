import type { MutantInfo } from "../../engine/types.js";
import { maskVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "ppoResponseMask",
  mistake: "the response ends at the first EOS, not the last one: anything after the first EOS was never meant to be said",
};
export const ppoResponseMask = maskVariant({ lastEos: true });
