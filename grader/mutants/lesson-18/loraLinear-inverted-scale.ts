import type { MutantInfo } from "../../engine/types.js";
import { loraLinearVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "loraLinear", mistake: "the scale is r / α; it is α / r: a larger α makes the adapter count more" };
export const loraLinear = loraLinearVariant({ scale: "inverted-scale" });
