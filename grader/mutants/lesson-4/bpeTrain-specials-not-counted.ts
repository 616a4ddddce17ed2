import type { MutantInfo } from "../../engine/types.js";
import { trainVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "bpeTrain", mistake: "does not count the special tokens in vocabSize and learns too many merges" };
export const bpeTrain = trainVariant("specials-not-counted");
