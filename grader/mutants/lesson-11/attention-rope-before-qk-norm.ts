import type { MutantInfo } from "../../engine/types.js";
import { attentionVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "attention", mistake: "RoPE is applied before QK-norm; MiniMind normalises q and k first, then rotates them (the order matters once the norm gains are not all 1)" };
export const attention = attentionVariant({ ropeBeforeNorm: true });
