import { maskVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = {
  exercise: "m2poMask",
  mistake: "of tokens tied on m2 the later position was masked first (sorted ascending and taken from the end); the order is largest m2 first and, among ties, the earlier position first",
};
export const m2poMask = maskVariant({ tiesLaterFirst: true });
