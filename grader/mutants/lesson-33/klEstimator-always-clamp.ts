import type { MutantInfo } from "../../engine/types.js";
import { klVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "klEstimator", mistake: "applyClamp = false must return the raw estimate, without the [−10, 10] clamp" };
export const klEstimator = klVariant({ alwaysClamp: true });
