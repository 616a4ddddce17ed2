import { filterVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "filteredProbabilities", mistake: "top-k was off when topK is left out; MiniMind's default keeps the 50 largest scores" };
export const filteredProbabilities = filterVariant({ defaults: { topK: 0 } });
