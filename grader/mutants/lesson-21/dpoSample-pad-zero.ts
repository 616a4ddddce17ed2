import type { MutantInfo } from "../../engine/types.js";
import { sampleVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "dpoSample", mistake: "the rows were padded with a literal 0, which is MiniMind's pad id but not every tokenizer's: pad with tokenizer.padId" };
export const dpoSample = sampleVariant("pad-zero");
