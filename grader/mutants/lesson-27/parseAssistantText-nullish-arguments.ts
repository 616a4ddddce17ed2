import type { MutantInfo } from "../../engine/types.js";
import { parseVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "parseAssistantText",
  mistake: "null arguments became \"{}\" (a ?? default); Python's call.get(\"arguments\", {}) only defaults a missing key, and json.dumps(None) is \"null\"",
};
export const parseAssistantText = parseVariant({ nullishArguments: true });
