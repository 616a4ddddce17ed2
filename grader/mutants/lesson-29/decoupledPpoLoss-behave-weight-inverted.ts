import { lossVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "decoupledPpoLoss", mistake: "the behaviour weight was π_behave/π_prox; it is π_prox/π_behave = exp(proximalLogprobs − oldLogprobs)" };
export const decoupledPpoLoss = lossVariant({ behaveWeightInverted: true });
