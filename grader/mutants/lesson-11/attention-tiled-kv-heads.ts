import type { MutantInfo } from "../../engine/types.js";
import { attentionVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "attention", mistake: "query head h reads kv head h mod Hkv; with repeat_kv it reads kv head ⌊h / nRep⌋" };
export const attention = attentionVariant({ repeat: "tiled" });
