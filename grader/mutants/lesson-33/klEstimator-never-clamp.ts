import type { MutantInfo } from "../../engine/types.js";
import { klVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "klEstimator", mistake: "by default (applyClamp = true) the estimate is clamped to [−10, 10]" };
export const klEstimator = klVariant({ neverClamp: true });
