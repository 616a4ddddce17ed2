import type { MutantInfo } from "../../engine/types.js";
import { sequenceVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "sequenceLevelRatio",
  mistake: "the loss mask was read as row lengths (the first Σ mask positions of each row); a mask can have holes, such as tool output inside a multi-turn response: average over the masked-in positions themselves",
};
export const sequenceLevelRatio = sequenceVariant({ maskAsLengths: true });
