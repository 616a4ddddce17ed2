import { countVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "countParams", mistake: "the router (gate, E·H per MoE layer) is missing from feedForward" };
export const countParams = countVariant({ noRouter: true });
