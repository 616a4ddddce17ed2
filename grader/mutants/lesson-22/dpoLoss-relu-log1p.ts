import type { MutantInfo } from "../../engine/types.js";
import { dpoLossVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "dpoLoss", mistake: "−log σ(x) written as relu(−x) + log1p(exp(−|x|)) has the right value, but at x = 0 (the policy equal to the reference: DPO's first step) the kinks of relu and |x| give the opposite gradient: use tf.softplus(−x)" };
export const dpoLoss = dpoLossVariant({ reluLog1p: true });
