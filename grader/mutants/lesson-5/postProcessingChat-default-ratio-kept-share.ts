import type { MutantInfo } from "../../engine/types.js";
import { postVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "postProcessingChat", mistake: "the default emptyThinkRatio was 0.8 (the share that is removed); MiniMind's empty_think_ratio default is 0.2, and a draw above it removes the block" };
export const postProcessingChat = postVariant("default-ratio-kept-share");
