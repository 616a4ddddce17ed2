import type { MutantInfo } from "../../engine/types.js";
import { attentionVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "attention", mistake: "the causal triangle covers the first S key columns; with a cache it must cover the last S (new query i sees every cached key and new keys up to i)" };
export const attention = attentionVariant({ causalFirstColumns: true });
