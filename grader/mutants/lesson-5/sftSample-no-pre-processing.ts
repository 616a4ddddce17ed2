import type { MutantInfo } from "../../engine/types.js";
import { sampleVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "sftSample", mistake: "skips the random system prompt (pre-processing)" };
export const sftSample = sampleVariant("no-pre-processing");
