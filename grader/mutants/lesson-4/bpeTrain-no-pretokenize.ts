import type { MutantInfo } from "../../engine/types.js";
import { trainVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "bpeTrain", mistake: "counts pairs across the whole text, so merges cross spaces and punctuation" };
export const bpeTrain = trainVariant("no-pretokenize");
