import type { MutantInfo } from "../../engine/types.js";
import { sampleVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "dpoSample", mistake: "masks every non-pad token, prompt included, instead of the assistant spans" };
export const dpoSample = sampleVariant("mask-all-tokens");
