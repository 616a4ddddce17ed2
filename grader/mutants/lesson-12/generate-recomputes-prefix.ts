import type { MutantInfo } from "../../engine/types.js";
import { generateVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "generate", mistake: "the cache is never used: every step recomputes the whole prefix (same tokens, far more work)" };
export const generate = generateVariant({ recomputesPrefix: true });
