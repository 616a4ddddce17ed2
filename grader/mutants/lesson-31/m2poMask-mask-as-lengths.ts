import { maskVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = {
  exercise: "m2poMask",
  mistake: "the loss mask was read as row lengths (the first Σ mask positions of each row); a loss mask can have holes, such as tool output inside a multi-turn response: use the mask position by position",
};
export const m2poMask = maskVariant({ maskAsLengths: true });
