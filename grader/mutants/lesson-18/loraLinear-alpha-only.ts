import type { MutantInfo } from "../../engine/types.js";
import { loraLinearVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "loraLinear", mistake: "the adapter was scaled by α alone; divide by the rank r too (r = the number of rows of A)" };
export const loraLinear = loraLinearVariant({ scale: "alpha-only" });
