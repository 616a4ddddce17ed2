import type { MutantInfo } from "../../engine/types.js";
import { labelsVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "sftLabels", mistake: "labels positions at or past maxLength" };
export const sftLabels = labelsVariant("ignores-max-length");
