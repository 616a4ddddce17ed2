import type { MutantInfo } from "../../engine/types.js";
import { chatVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "renderChat", mistake: "writes string tool-call arguments as a JSON string (quoted) instead of as given" };
export const renderChat = chatVariant("string-args-quoted");
