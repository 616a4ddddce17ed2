import type { MutantInfo } from "../../engine/types.js";
import { parseVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "parseToolCalls",
  mistake: "JavaScript's trim() is not Python's strip(): NEL (U+0085) is whitespace to Python, the byte-order mark is not",
};
export const parseToolCalls = parseVariant({ jsTrim: true });
