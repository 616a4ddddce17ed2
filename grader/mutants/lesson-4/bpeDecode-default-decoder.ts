import type { MutantInfo } from "../../engine/types.js";
import { decodeVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "bpeDecode", mistake: "new TextDecoder() with its defaults strips a leading U+FEFF (byte-order mark); Hugging Face's decoder keeps it: pass { ignoreBOM: true }" };
export const bpeDecode = decodeVariant("default-decoder");
