import type { MutantInfo } from "../../engine/types.js";
import { pretrainVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "pretrainSample", mistake: "the labels are -100 where the id is 0 rather than where it is tokenizer.padId (MiniMind's pad id happens to be 0)" };
export const pretrainSample = pretrainVariant("zero-ids-unlabelled");
