import type { MutantInfo } from "../../engine/types.js";
import { parseVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "parseAssistantText",
  mistake: "a reply with </think> but no <think> (the prompt opened the block, open_thinking) keeps its thinking as content: split at the first </think>",
};
export const parseAssistantText = parseVariant({ needsOpeningTag: true });
