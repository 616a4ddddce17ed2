import type { MutantInfo } from "../../engine/types.js";
import { normalizeVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "normalize", mistake: "the leave-one-out mean divides by n; leaving x_i out leaves n − 1 elements" };
export const normalize = normalizeVariant({ leaveOneOutOverN: true });
