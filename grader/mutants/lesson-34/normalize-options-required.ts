import type { MutantInfo } from "../../engine/types.js";
import { normalizeVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "normalize",
  mistake: "the options were read without a default, so normalize(x) with no options threw; an omitted options object means every NormConfig default (and no mask)",
};
export const normalize = normalizeVariant({ optionsRequired: true });
