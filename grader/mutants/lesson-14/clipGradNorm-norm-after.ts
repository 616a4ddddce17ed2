import { clipVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "clipGradNorm", mistake: "the norm returned is the one after clipping; clip_grad_norm_ returns the norm before" };
export const clipGradNorm = clipVariant({ normAfter: true });
