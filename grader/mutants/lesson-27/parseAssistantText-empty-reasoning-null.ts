import type { MutantInfo } from "../../engine/types.js";
import { parseVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "parseAssistantText",
  mistake: "an empty think block gives reasoning \"\" (there was a block), not null (no block at all)",
};
export const parseAssistantText = parseVariant({ emptyReasoningIsNull: true });
