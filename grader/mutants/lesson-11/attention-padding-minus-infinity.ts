import { attentionVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "attention", mistake: "padded keys were set to −∞ instead of getting −1e9 added: a query that can only see padded keys gets NaN; add (1 − mask)·(−1e9) as MiniMind does" };
export const attention = attentionVariant({ padMinusInfinity: true });
