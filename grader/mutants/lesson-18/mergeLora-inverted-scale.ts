import type { MutantInfo } from "../../engine/types.js";
import { mergeLoraVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "mergeLora", mistake: "the update was scaled by r / α; it is α / r" };
export const mergeLora = mergeLoraVariant({ scale: "inverted-scale" });
