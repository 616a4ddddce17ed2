import { attentionVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "attention", mistake: "the mask was read as a number of pad positions taken from the left; a mask can have holes: mask each key by its own 0 or 1" };
export const attention = attentionVariant({ padFromLeft: true });
