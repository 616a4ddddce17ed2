import { sampleVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "sampleNextToken", mistake: "the cumulative sum walked the tokens from most to least likely; walk them in vocabulary order (id 0, 1, 2, …) so that a seed picks the same token as the reference" };
export const sampleNextToken = sampleVariant({ sortedOrder: true });
