import type { MutantInfo } from "../../engine/types.js";
import { labelsVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "sftLabels", mistake: "leaves the closing <|im_end|>\n unlabelled, so the model never learns to stop" };
export const sftLabels = labelsVariant("end-unlabelled");
