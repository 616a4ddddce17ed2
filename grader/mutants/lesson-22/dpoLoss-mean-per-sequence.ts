import type { MutantInfo } from "../../engine/types.js";
import { dpoLossVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "dpoLoss", mistake: "each sequence was averaged over its tokens; MiniMind sums the masked log-probs of a sequence (a sequence's log-probability)" };
export const dpoLoss = dpoLossVariant({ meanPerSequence: true });
