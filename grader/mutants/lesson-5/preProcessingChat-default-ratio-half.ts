import type { MutantInfo } from "../../engine/types.js";
import { preVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "preProcessingChat", mistake: "the default addSystemRatio is not 0.2 (MiniMind's add_system_ratio default)" };
export const preProcessingChat = preVariant("default-ratio-half");
