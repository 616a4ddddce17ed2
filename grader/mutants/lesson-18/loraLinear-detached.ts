import type { MutantInfo } from "../../engine/types.js";
import { loraLinearVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "loraLinear", mistake: "the adapter's output went through plain numbers (dataSync): the value is right but no gradient reaches A or B, so LoRA could never train" };
export const loraLinear = loraLinearVariant({ detached: true });
