import { generateVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "generate", mistake: "a left-out useCache turned the cache off (if (opts.useCache)), so every step recomputed the whole prefix; the default is true: the prompt once, then one token per step" };
export const generate = generateVariant({ cacheOffByDefault: true });
