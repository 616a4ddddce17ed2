import type { MutantInfo } from "../../engine/types.js";
import { pretrainVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "pretrainSample", mistake: "keeps the pad ids as labels instead of -100" };
export const pretrainSample = pretrainVariant("pad-labels-kept");
