import type { MutantInfo } from "../../engine/types.js";
import { postVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "postProcessingChat", mistake: "removes the empty think block when the draw is below the ratio (the 20% case) instead of above it" };
export const postProcessingChat = postVariant("inverted");
