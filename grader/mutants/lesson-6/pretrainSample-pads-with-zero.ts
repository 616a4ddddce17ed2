import type { MutantInfo } from "../../engine/types.js";
import { pretrainVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "pretrainSample", mistake: "padded with a literal 0 and labelled 0 as -100: that is MiniMind's pad id, not every tokenizer's; use tokenizer.padId" };
export const pretrainSample = pretrainVariant("pads-with-zero");
