import type { MutantInfo } from "../../engine/types.js";
import { postVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "postProcessingChat", mistake: "removes only the first empty think block (String.replace with a string)" };
export const postProcessingChat = postVariant("first-only");
