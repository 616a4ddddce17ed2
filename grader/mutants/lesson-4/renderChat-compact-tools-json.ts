import type { MutantInfo } from "../../engine/types.js";
import { chatVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "renderChat", mistake: "writes tool schemas with JSON.stringify's compact separators instead of Python's json.dumps" };
export const renderChat = chatVariant("compact-tools-json");
