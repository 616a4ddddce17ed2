import type { MutantInfo } from "../../engine/types.js";
import { preVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "preProcessingChat", mistake: "a conversation counted as a tool conversation when a message merely has a tools key; MiniMind's rows carry tools: null (or \"\") on every message, and only a truthy value counts" };
export const preProcessingChat = preVariant("tools-key-present");
