import type { MutantInfo } from "../../engine/types.js";
import { completionMaskVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "grpoCompletionMask", mistake: "the EOS token itself was masked out: keep positions j ≤ eosIndex, not j < eosIndex" };
export const grpoCompletionMask = completionMaskVariant("eos-excluded");
