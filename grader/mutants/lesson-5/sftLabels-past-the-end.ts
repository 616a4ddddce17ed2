import type { MutantInfo } from "../../engine/types.js";
import { labelsVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "sftLabels", mistake: "an open span was labelled up to min(end + len(end marker), maxLength) even past the last id, so the labels grew longer than inputIds; stop at the last id" };
export const sftLabels = labelsVariant("past-the-end");
