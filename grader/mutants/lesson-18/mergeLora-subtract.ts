import type { MutantInfo } from "../../engine/types.js";
import { mergeLoraVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "mergeLora", mistake: "the update was subtracted; the adapter's output is added to the layer's, so its weight is added to W" };
export const mergeLora = mergeLoraVariant({ subtract: true });
