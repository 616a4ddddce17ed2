import type { MutantInfo } from "../../engine/types.js";
import { parseVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "parseToolCalls",
  mistake: "the block pattern is greedy: from the first <tool_call> to the last </tool_call> is one block, so two calls become one piece of broken JSON",
};
export const parseToolCalls = parseVariant({ greedy: true });
