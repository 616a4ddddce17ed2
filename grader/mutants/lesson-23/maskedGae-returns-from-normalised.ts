import type { MutantInfo } from "../../engine/types.js";
import { gaeVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "maskedGae", mistake: "returns were built from the normalised advantages; they must be A + V before normalisation" };
export const maskedGae = gaeVariant({ returnsFromNormalised: true });
