import type { MutantInfo } from "../../engine/types.js";
import { batchVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "dpoBatch", mistake: "returns the mask as int32; lesson 22's dpoLoss multiplies it with float log-probs" };
export const dpoBatch = batchVariant("int-mask");
