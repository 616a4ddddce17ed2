import type { MutantInfo } from "../../engine/types.js";
import { pretrainVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "pretrainSample", mistake: "masks only the padding positions, not pad ids inside the text (MiniMind masks by id)" };
export const pretrainSample = pretrainVariant("pad-by-position");
