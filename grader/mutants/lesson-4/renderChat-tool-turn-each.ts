import type { MutantInfo } from "../../engine/types.js";
import { chatVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "renderChat", mistake: "puts each tool response in a user turn of its own instead of one turn for a run of them" };
export const renderChat = chatVariant("tool-turn-each");
