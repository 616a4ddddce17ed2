import type { MutantInfo } from "../../engine/types.js";
import { preVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "preProcessingChat", mistake: "replaces the first message with the system prompt instead of prepending it" };
export const preProcessingChat = preVariant("replaces-first");
