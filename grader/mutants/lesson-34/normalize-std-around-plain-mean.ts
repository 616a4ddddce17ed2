import type { MutantInfo } from "../../engine/types.js";
import { normalizeVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "normalize", mistake: "with leave-one-out, the std must be taken around each element's own leave-one-out mean, not the plain mean" };
export const normalize = normalizeVariant({ stdAroundPlainMean: true });
