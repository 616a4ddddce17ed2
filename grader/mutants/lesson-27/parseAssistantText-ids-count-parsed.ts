import type { MutantInfo } from "../../engine/types.js";
import { parseVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "parseAssistantText",
  mistake: "ids number the <tool_call> blocks, broken ones included (enumerate over every match), not only the calls that parsed",
};
export const parseAssistantText = parseVariant({ idsCountParsed: true });
