import type { MutantInfo } from "../../engine/types.js";
import { mergeLoraVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "mergeLora", mistake: "the update B·A was added unscaled; merge the same α / r that the adapter's forward pass uses" };
export const mergeLora = mergeLoraVariant({ scale: "no-scale" });
