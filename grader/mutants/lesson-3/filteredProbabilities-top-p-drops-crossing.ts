import { filterVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "filteredProbabilities", mistake: "top-p also dropped the token whose cumulative probability crosses p; shift the mask right by one so that token (and always the first) stays" };
export const filteredProbabilities = filterVariant({ topPDropsCrossing: true });
