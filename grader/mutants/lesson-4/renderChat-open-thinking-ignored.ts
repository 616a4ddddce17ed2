import type { MutantInfo } from "../../engine/types.js";
import { chatVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "renderChat", mistake: "ignores openThinking and always closes the think block of the generation prompt" };
export const renderChat = chatVariant("open-thinking-ignored");
