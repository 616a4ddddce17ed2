import type { MutantInfo } from "../../engine/types.js";
import { sequenceVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "sequenceLevelRatio", mistake: "the values are right but were computed on plain arrays (dataSync), so no gradient reaches logRatio: stay in tensor ops" };
export const sequenceLevelRatio = sequenceVariant({ viaArrays: true });
