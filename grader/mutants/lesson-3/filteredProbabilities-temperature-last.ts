import { filterVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "filteredProbabilities", mistake: "the temperature was applied after the filters; divide the logits by it first: top-p must see the tempered distribution" };
export const filteredProbabilities = filterVariant({ temperatureAfterFilters: true });
