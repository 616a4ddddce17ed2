import type { MutantInfo } from "../../engine/types.js";
import { parseVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "parseToolCalls",
  mistake: "a block that is not JSON is skipped (MiniMind's except: pass), not the end of the parsing",
};
export const parseToolCalls = parseVariant({ stopAtBroken: true });
