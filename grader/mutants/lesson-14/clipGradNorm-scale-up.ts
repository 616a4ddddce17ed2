import { clipVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "clipGradNorm", mistake: "the factor maxNorm/‖g‖ was not capped at 1, so small gradients were scaled up" };
export const clipGradNorm = clipVariant({ scaleUp: true });
