import type { MutantInfo } from "../../engine/types.js";
import { generateVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "generate", mistake: "the loop always runs maxNewTokens steps; stop as soon as every row has produced EOS" };
export const generate = generateVariant({ neverStopsEarly: true });
