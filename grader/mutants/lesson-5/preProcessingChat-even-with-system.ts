import type { MutantInfo } from "../../engine/types.js";
import { preVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "preProcessingChat", mistake: "draws and may add a second system prompt when the conversation already has one" };
export const preProcessingChat = preVariant("even-with-system");
