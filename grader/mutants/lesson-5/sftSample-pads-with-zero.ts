import type { MutantInfo } from "../../engine/types.js";
import { sampleVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "sftSample", mistake: "padded with a literal 0 instead of tokenizer.padId (MiniMind's pad id happens to be 0; another tokenizer's is not)" };
export const sftSample = sampleVariant("pads-with-zero");
