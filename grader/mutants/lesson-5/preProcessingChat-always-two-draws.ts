import type { MutantInfo } from "../../engine/types.js";
import { preVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "preProcessingChat", mistake: "draws the prompt choice even when no system prompt is added, shifting every later draw" };
export const preProcessingChat = preVariant("always-two-draws");
