import type { MutantInfo } from "../../engine/types.js";
import { trainVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "bpeTrain", mistake: "gives the special tokens the last ids instead of the first" };
export const bpeTrain = trainVariant("specials-last");
