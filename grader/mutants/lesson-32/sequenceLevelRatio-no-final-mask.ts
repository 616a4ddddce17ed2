import type { MutantInfo } from "../../engine/types.js";
import { sequenceVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "sequenceLevelRatio", mistake: "padding positions keep the row's ratio and advantage: set them to 0 where the mask is false" };
export const sequenceLevelRatio = sequenceVariant({ noFinalMask: true });
