import type { MutantInfo } from "../../engine/types.js";
import { batchVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "dpoBatch", mistake: "puts the rejected rows first" };
export const dpoBatch = batchVariant("rejected-first");
