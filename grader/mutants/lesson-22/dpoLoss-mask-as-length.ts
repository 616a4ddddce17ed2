import type { MutantInfo } from "../../engine/types.js";
import { dpoLossVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "dpoLoss", mistake: "the mask was read as a response length (the first Σmask positions summed); DPODataset's mask is 0 on the prompt and on the padding, 1 on the answer: multiply by it" };
export const dpoLoss = dpoLossVariant({ maskAsLength: true });
