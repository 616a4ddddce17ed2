import { lossVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "decoupledPpoLoss", mistake: "the ratio was taken against π_behave (oldLogprobs); decoupled PPO centres the trust region on the proximal policy: r = exp(logprobs − proximalLogprobs)" };
export const decoupledPpoLoss = lossVariant({ ratioAgainstBehaviour: true });
