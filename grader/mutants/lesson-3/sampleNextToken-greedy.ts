import { sampleVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "sampleNextToken", mistake: "the most likely token was taken; draw one: the first token whose cumulative probability exceeds u from the seeded Rng" };
export const sampleNextToken = sampleVariant({ greedy: true });
