import { lossVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "decoupledPpoLoss", mistake: "the behaviour weight π_prox/π_behave was applied without rejection sampling; AReaL multiplies it in only when rejectionSampling is set" };
export const decoupledPpoLoss = lossVariant({ behaveWeightAlways: true });
