import type { MutantInfo } from "../../engine/types.js";
import { dpoLossVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "dpoLoss", mistake: "the per-sequence sums went through plain numbers (dataSync): the value is right but the loss is cut off from the policy, so no gradient flows; keep every step in tensor ops" };
export const dpoLoss = dpoLossVariant({ sumsInJs: true });
