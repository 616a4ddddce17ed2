import type { MutantInfo } from "../../engine/types.js";
import { batchVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "dpoBatch", mistake: "interleaves chosen and rejected rows (c0, r0, c1, r1, …) instead of all chosen then all rejected" };
export const dpoBatch = batchVariant("interleaved");
