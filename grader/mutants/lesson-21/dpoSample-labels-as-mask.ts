import type { MutantInfo } from "../../engine/types.js";
import { sampleVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "dpoSample", mistake: "returns the SFT labels (ids and -100) as the mask instead of 1s and 0s" };
export const dpoSample = sampleVariant("labels-as-mask");
