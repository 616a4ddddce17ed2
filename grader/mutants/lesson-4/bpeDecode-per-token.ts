import type { MutantInfo } from "../../engine/types.js";
import { decodeVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "bpeDecode", mistake: "decodes each token alone, so characters split across tokens become U+FFFD" };
export const bpeDecode = decodeVariant("per-token");
