import { rmsNormVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "rmsNorm", mistake: "the mean was subtracted first: that is LayerNorm; RMSNorm only divides by the root mean square" };
export const rmsNorm = rmsNormVariant({ centred: true });
