import type { MutantInfo } from "../../engine/types.js";
import { dpoLossVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "dpoLoss", mistake: "the ratios were taken as exp(Σ logp) / exp(Σ logp) and then logged: a response's log-probability is far below −100, exp underflows to 0 and the ratio is 0/0; subtract the log-probabilities instead" };
export const dpoLoss = dpoLossVariant({ expRatios: true });
