import type { MutantInfo } from "../../engine/types.js";
import { sequenceVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "sequenceLevelRatio", mistake: "exp(Σ log r) is the product of the token ratios: divide the summed log-ratio by the row's token count first" };
export const sequenceLevelRatio = sequenceVariant({ productOfRatios: true });
