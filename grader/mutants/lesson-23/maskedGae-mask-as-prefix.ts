import { gaeVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = {
  exercise: "maskedGae",
  mistake: "the mask was read as a length per row (its first Σ mask positions kept); a mask can have holes: weight each position by its own mask entry",
};
export const maskedGae = gaeVariant({ maskAsPrefix: true });
