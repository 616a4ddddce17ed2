import type { MutantInfo } from "../../engine/types.js";
import { sampleVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "dpoSample", mistake: "uses mask[:-1] (aligned with x) instead of mask[1:] (aligned with the targets y)" };
export const dpoSample = sampleVariant("mask-unshifted");
