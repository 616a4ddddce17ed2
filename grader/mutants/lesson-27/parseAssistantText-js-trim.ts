import type { MutantInfo } from "../../engine/types.js";
import { parseVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "parseAssistantText",
  mistake: "JavaScript's trim() is not Python's strip(): Python strips NEL (U+0085) and \\x1c-\\x1f but keeps the BOM (U+FEFF)",
};
export const parseAssistantText = parseVariant({ jsTrim: true });
