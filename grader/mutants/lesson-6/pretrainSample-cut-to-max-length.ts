import type { MutantInfo } from "../../engine/types.js";
import { pretrainVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "pretrainSample", mistake: "cuts the text to maxLength instead of maxLength − 2, so bos and eos overflow the window" };
export const pretrainSample = pretrainVariant("cut-to-max-length");
