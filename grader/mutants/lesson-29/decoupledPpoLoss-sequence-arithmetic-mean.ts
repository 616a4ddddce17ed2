import { lossVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "decoupledPpoLoss", mistake: "at sequence level the token ratios were averaged; GSPO uses the geometric mean exp(mean of log-ratios)" };
export const decoupledPpoLoss = lossVariant({ sequenceArithmeticMean: true });
