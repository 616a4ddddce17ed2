import type { MutantInfo } from "../../engine/types.js";
import { gaeVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "maskedGae", mistake: "padding positions keep a non-zero normalised advantage: multiply by the mask at the end" };
export const maskedGae = gaeVariant({ noFinalMask: true });
