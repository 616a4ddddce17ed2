import type { MutantInfo } from "../../engine/types.js";
import { labelsVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "sftLabels", mistake: "labels only the first assistant turn of a conversation" };
export const sftLabels = labelsVariant("first-span-only");
