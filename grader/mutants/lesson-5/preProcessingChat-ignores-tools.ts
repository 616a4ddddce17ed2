import type { MutantInfo } from "../../engine/types.js";
import { preVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "preProcessingChat", mistake: "adds a system prompt to tool-use conversations, which MiniMind leaves unchanged" };
export const preProcessingChat = preVariant("ignores-tools");
