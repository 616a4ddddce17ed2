import type { MutantInfo } from "../../engine/types.js";
import { decodeVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "bpeDecode", mistake: "drops broken UTF-8 instead of writing U+FFFD" };
export const bpeDecode = decodeVariant("drops-broken");
