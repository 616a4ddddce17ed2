import type { MutantInfo } from "../../engine/types.js";
import { sequenceVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "sequenceLevelRatio", mistake: "the ratio is the arithmetic mean of the token ratios; GSPO takes the geometric mean exp(mean of log-ratios)" };
export const sequenceLevelRatio = sequenceVariant({ arithmeticMean: true });
