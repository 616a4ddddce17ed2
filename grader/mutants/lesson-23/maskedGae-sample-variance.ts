import type { MutantInfo } from "../../engine/types.js";
import { gaeVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "maskedGae", mistake: "the variance divides by n − 1 (sample variance); MiniMind divides by n (population variance)" };
export const maskedGae = gaeVariant({ sampleVariance: true });
