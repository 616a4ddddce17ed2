import type { MutantInfo } from "../../engine/types.js";
import { encodeVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "bpeEncode", mistake: "encodes special-token strings as ordinary text" };
export const bpeEncode = encodeVariant("no-specials");
