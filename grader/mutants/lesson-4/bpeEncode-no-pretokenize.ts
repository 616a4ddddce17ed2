import type { MutantInfo } from "../../engine/types.js";
import { encodeVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "bpeEncode", mistake: "merges across pre-token boundaries (the whole text is one word)" };
export const bpeEncode = encodeVariant("no-pretokenize");
