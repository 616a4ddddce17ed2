import type { MutantInfo } from "../../engine/types.js";
import { applyLoraVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "applyLora", mistake: "the adapters were named \"<module>.weight.lora.A\"; MiniMind's save_lora writes \"<module>.lora.A.weight\" and \"<module>.lora.B.weight\"" };
export const applyLora = applyLoraVariant({ wrongNames: true });
