import type { MutantInfo } from "../../engine/types.js";
import { generateVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "generate", mistake: "the attention mask is not extended by a 1 for each new token, so it no longer covers every key" };
export const generate = generateVariant({ maskNotExtended: true });
