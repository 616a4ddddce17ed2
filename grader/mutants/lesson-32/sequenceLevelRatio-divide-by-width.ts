import type { MutantInfo } from "../../engine/types.js";
import { sequenceVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "sequenceLevelRatio", mistake: "the means divide by the padded width T; divide by each row's count of masked-in tokens (at least 1)" };
export const sequenceLevelRatio = sequenceVariant({ divideByWidth: true });
