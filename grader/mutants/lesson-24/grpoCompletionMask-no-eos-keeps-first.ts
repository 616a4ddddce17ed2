import type { MutantInfo } from "../../engine/types.js";
import { completionMaskVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "grpoCompletionMask", mistake: "rows without an EOS kept only token 0: argMax of an all-zero row is 0, so fall back to R − 1 when a row has no EOS" };
export const grpoCompletionMask = completionMaskVariant("no-eos-keeps-first");
