import type { MutantInfo } from "../../engine/types.js";
import { loraLinearVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "loraLinear", mistake: "the frozen layer's output was scaled too; only the adapter's output is multiplied by α / r" };
export const loraLinear = loraLinearVariant({ scaleWholeOutput: true });
