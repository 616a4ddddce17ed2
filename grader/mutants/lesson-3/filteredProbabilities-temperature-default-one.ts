import { filterVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "filteredProbabilities", mistake: "an options object without temperature was treated as T = 1; MiniMind's default temperature is 0.85" };
export const filteredProbabilities = filterVariant({ defaults: { temperature: 1 } });
