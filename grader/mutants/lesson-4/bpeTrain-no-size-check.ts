import type { MutantInfo } from "../../engine/types.js";
import { trainVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "bpeTrain", mistake: "a vocabSize smaller than the special tokens plus the 256 bytes was accepted; throw a RangeError instead of returning a model that cannot hold every byte" };
export const bpeTrain = trainVariant("no-size-check");
