import type { MutantInfo } from "../../engine/types.js";
import { postVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "postProcessingChat", mistake: "draws a uniform for every prompt, even one without an empty think block" };
export const postProcessingChat = postVariant("always-draws");
