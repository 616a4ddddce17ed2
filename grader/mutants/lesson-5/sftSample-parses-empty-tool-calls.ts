import type { MutantInfo } from "../../engine/types.js";
import { sampleVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "sftSample", mistake: "every string tool_calls was JSON-parsed, the empty string too (JSON.parse(\"\") throws); MiniMind parses it only when it is a non-empty string" };
export const sftSample = sampleVariant("parses-empty-tool-calls");
