import type { MutantInfo } from "../../engine/types.js";
import { parseVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "parseAssistantText",
  mistake: "a greedy (.*) spans from the first <tool_call> to the last </tool_call>: two calls become one block of broken JSON; use a lazy (.*?)",
};
export const parseAssistantText = parseVariant({ greedyToolCall: true });
