import { rmsNormVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "rmsNorm", mistake: "the gain was copied out of its tensor (dataSync) before multiplying, so no gradient reaches weight; multiply by the weight tensor itself" };
export const rmsNorm = rmsNormVariant({ gainOffTape: true });
