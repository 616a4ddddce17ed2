import type { MutantInfo } from "../../engine/types.js";
import { chatVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "renderChat", mistake: "renders no think block for an assistant turn without reasoning" };
export const renderChat = chatVariant("no-empty-think");
