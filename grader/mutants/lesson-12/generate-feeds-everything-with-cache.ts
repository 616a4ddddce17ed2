import type { MutantInfo } from "../../engine/types.js";
import { generateVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "generate", mistake: "every step feeds the whole sequence while also passing the cache: feed only ids[:, past:], the tokens the cache does not hold yet" };
export const generate = generateVariant({ feedsEverythingWithCache: true });
