import type { MutantInfo } from "../../engine/types.js";
import { decodeVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "bpeDecode", mistake: "joins the tokens without mapping byte characters back (Ġ stays Ġ)" };
export const bpeDecode = decodeVariant("no-byte-table");
