import type { MutantInfo } from "../../engine/types.js";
import { encodeVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "bpeEncode", mistake: "takes the longest vocabulary entry from the left instead of applying merges" };
export const bpeEncode = encodeVariant("longest-match");
