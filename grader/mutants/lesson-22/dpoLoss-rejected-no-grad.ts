import type { MutantInfo } from "../../engine/types.js";
import { dpoLossVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "dpoLoss", mistake: "the rejected responses carry no gradient (scored like the frozen reference): DPO must push the rejected log-probs down as well as the chosen ones up" };
export const dpoLoss = dpoLossVariant({ rejectedNoGrad: true });
