import { clipVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "clipGradNorm", mistake: "Math.hypot(...values) over every gradient value overflows the call stack on a real model's gradients (hundreds of thousands of numbers): reduce with tensor ops, or a loop" };
export const clipGradNorm = clipVariant({ hypotSpread: true });
