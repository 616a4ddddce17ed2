import { generateVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "generate", mistake: "a left-out eosTokenId never stopped generation (?? null); MiniMind's default eos_token_id is 2" };
export const generate = generateVariant({ eosDefaultNone: true });
