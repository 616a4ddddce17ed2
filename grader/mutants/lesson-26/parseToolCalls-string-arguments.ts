import type { MutantInfo } from "../../engine/types.js";
import { parseVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "parseToolCalls",
  mistake: "arguments given as a JSON string must be parsed into an object (the rollout does json.loads on a string)",
};
export const parseToolCalls = parseVariant({ stringArgsUnparsed: true });
