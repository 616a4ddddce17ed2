import type { MutantInfo } from "../../engine/types.js";
import { mergeLoraVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "mergeLora", mistake: "a fresh adapter (B all zeros) was skipped as a shortcut: the value is the same, but then nothing reaches A or B, so LoRA training never leaves step 0" };
export const mergeLora = mergeLoraVariant({ skipFresh: true });
