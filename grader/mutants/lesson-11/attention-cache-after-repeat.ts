import type { MutantInfo } from "../../engine/types.js";
import { attentionVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "attention", mistake: "the cache stores keys/values after repeatKv ([B, T, Hq, D]); MiniMind keeps them before it, with Hkv heads, so the cache stays small" };
export const attention = attentionVariant({ cacheAfterRepeat: true });
