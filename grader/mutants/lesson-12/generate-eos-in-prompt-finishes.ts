import { generateVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "generate", mistake: "a row whose prompt already contains EOS counted as finished; only tokens generated after the prompt finish a row (a multi-turn prompt ends each turn with EOS)" };
export const generate = generateVariant({ eosInPromptFinishes: true });
