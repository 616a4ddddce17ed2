import type { MutantInfo } from "../../engine/types.js";
import { parseVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "parseAssistantText",
  mistake: "tool-call blocks leave the content only when at least one of them parsed; when none did, MiniMind keeps the text as it was",
};
export const parseAssistantText = parseVariant({ alwaysRemoveBlocks: true });
