import type { MutantInfo } from "../../engine/types.js";
import { dpoLossVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "dpoLoss", mistake: "prompt and padding tokens were summed too: multiply the log-probs by the mask before the per-sequence sum" };
export const dpoLoss = dpoLossVariant({ noMask: true });
