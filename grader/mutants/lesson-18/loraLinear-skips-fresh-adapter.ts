import type { MutantInfo } from "../../engine/types.js";
import { loraLinearVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "loraLinear", mistake: "a fresh adapter (B all zeros) was skipped as a shortcut: the value is the same, but then nothing reaches A or B, so LoRA training never leaves step 0" };
export const loraLinear = loraLinearVariant({ skipFresh: true });
