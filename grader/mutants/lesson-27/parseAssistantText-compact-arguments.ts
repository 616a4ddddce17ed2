import type { MutantInfo } from "../../engine/types.js";
import { parseVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "parseAssistantText",
  mistake: "arguments are re-serialised as Python's json.dumps writes them, with \", \" and \": \" separators; JSON.stringify writes none",
};
export const parseAssistantText = parseVariant({ compactArguments: true });
