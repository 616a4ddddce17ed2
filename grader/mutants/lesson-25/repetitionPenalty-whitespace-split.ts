import type { MutantInfo } from "../../engine/types.js";
import { penaltyVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "repetitionPenalty",
  mistake: "tokenise with the regex \\w+|[^\\w\\s], not by splitting on spaces: each punctuation mark is its own token",
};
export const repetitionPenalty = penaltyVariant({ whitespaceSplit: true });
