import { generateVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "generate", mistake: "an explicit eosTokenId: null became 2 (opts.eosTokenId ?? 2); null means never stop early, only a left-out eosTokenId defaults to 2" };
export const generate = generateVariant({ eosNullAsDefault: true });
