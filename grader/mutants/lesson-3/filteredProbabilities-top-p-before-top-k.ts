import { filterVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "filteredProbabilities", mistake: "top-p ran before top-k; MiniMind cuts to the k largest first, then computes the nucleus over what is left" };
export const filteredProbabilities = filterVariant({ topPBeforeTopK: true });
