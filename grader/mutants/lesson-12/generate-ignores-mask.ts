import type { MutantInfo } from "../../engine/types.js";
import { generateVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "generate", mistake: "the attention mask is not passed to the model, so padded prompts attend to their padding" };
export const generate = generateVariant({ ignoresMask: true });
