import { filterVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "filteredProbabilities", mistake: "top-p dropped the tokens after the cumulative probability reached p exactly; only a cumulative probability that passes p (>) removes the tokens after it" };
export const filteredProbabilities = filterVariant({ topPInclusive: true });
