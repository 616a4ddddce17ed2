import type { MutantInfo } from "../../engine/types.js";
import { applyLoraVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "applyLora", mistake: "A was zeroed and B drawn at random; MiniMind draws A from N(0, 0.02²) and zeroes B (both start as a no-op, but the names and values differ)" };
export const applyLora = applyLoraVariant({ zeroA: true });
