import { generateVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "generate", mistake: "a left-out attentionMask (undefined) was used as a mask; check for null and undefined alike" };
export const generate = generateVariant({ maskNullCheckOnly: true });
