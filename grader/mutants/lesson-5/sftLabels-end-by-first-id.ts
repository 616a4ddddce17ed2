import type { MutantInfo } from "../../engine/types.js";
import { labelsVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "sftLabels", mistake: "a span ended at the first id of the end marker (<|im_end|>) even when the rest of the marker (\"\\n\") does not follow; match the whole assistantEnd sequence" };
export const sftLabels = labelsVariant("end-by-first-id");
