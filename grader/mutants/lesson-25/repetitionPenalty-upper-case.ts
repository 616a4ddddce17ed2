import type { MutantInfo } from "../../engine/types.js";
import { penaltyVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "repetitionPenalty",
  mistake: "the text was upper-cased to ignore case; MiniMind lower-cases it (text.lower()), and the two differ: 'ß' upper-cases to 'SS', so 'straße' and 'strasse' become the same word",
};
export const repetitionPenalty = penaltyVariant({ upperCase: true });
