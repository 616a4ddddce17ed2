import type { MutantInfo } from "../../engine/types.js";
import { labelsVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "sftLabels", mistake: "labels the <|im_start|>assistant\n marker too (it is prompt, not response)" };
export const sftLabels = labelsVariant("start-labelled");
