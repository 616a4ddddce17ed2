import type { MutantInfo } from "../../engine/types.js";
import { loraLinearVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "loraLinear", mistake: "the adapter's output was added unscaled; it is multiplied by α / r (MiniMind's scale of 1 is the case α = r)" };
export const loraLinear = loraLinearVariant({ scale: "no-scale" });
