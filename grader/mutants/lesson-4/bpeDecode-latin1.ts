import type { MutantInfo } from "../../engine/types.js";
import { decodeVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "bpeDecode", mistake: "reads the bytes one character each instead of as UTF-8" };
export const bpeDecode = decodeVariant("latin1");
