import type { MutantInfo } from "../../engine/types.js";
import { sampleVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "dpoSample", mistake: "post-processes the rejected conversation first, so the two draws go to the wrong sides" };
export const dpoSample = sampleVariant("rejected-drawn-first");
