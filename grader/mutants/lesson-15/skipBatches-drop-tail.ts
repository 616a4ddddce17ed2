import { skipVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "skipBatches", mistake: "the short last batch was dropped: MiniMind trains on it (no drop_last)" };
export const skipBatches = skipVariant({ dropTail: true });
