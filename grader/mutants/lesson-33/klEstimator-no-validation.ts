import type { MutantInfo } from "../../engine/types.js";
import { klVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "klEstimator", mistake: "an unknown estimator name must throw an error, not fall back to k1" };
export const klEstimator = klVariant({ noValidation: true });
