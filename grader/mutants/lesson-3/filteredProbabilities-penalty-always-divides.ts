import { filterVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "filteredProbabilities", mistake: "negative scores were divided by θ, which raises them; MiniMind multiplies a score ≤ 0 by θ and divides a positive one" };
export const filteredProbabilities = filterVariant({ penaltyAlwaysDivides: true });
