import type { MutantInfo } from "../../engine/types.js";
import { encodeVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "bpeEncode", mistake: "merges the leftmost mergeable pair instead of the lowest-ranked one" };
export const bpeEncode = encodeVariant("leftmost-mergeable");
