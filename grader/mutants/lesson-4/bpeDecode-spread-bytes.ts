import type { MutantInfo } from "../../engine/types.js";
import { decodeVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "bpeDecode", mistake: "all the bytes were passed as arguments (Uint8Array.of(...bytes)): a long id list exceeds the call stack and throws a RangeError; build the array without spreading" };
export const bpeDecode = decodeVariant("spread-bytes");
