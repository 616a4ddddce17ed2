import type { MutantInfo } from "../../engine/types.js";
import { normalizeVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "normalize",
  mistake: "rows past the last full group were pooled as one more, smaller group; as in AReaL they belong to no group (mean 0, std 0), so they are divided by eps alone",
};
export const normalize = normalizeVariant({ partialGroupPooled: true });
