import type { MutantInfo } from "../../engine/types.js";
import { encodeVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "bpeEncode", mistake: "matches the shortest special token where a longer one starts at the same place" };
export const bpeEncode = encodeVariant("shortest-special");
