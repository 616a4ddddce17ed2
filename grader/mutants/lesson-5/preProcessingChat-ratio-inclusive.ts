import type { MutantInfo } from "../../engine/types.js";
import { preVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "preProcessingChat", mistake: "a system prompt was added when the draw equals the ratio (u ≤ ratio); MiniMind adds one only when random() < add_system_ratio" };
export const preProcessingChat = preVariant("ratio-inclusive");
