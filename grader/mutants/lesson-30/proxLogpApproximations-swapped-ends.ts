import { approxVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "proxLogpApproximations", mistake: "the interpolation started from logprobs; α is the step from old (behaviour) towards logprobs: old + α·(logprobs − old)" };
export const proxLogpApproximations = approxVariant({ swappedEnds: true });
