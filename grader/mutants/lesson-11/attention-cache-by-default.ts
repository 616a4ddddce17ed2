import { attentionVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "attention", mistake: "presentKv was returned although useCache was left out; return the cache only when useCache is true" };
export const attention = attentionVariant({ cacheByDefault: true });
