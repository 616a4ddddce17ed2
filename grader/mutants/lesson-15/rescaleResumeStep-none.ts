import { rescaleVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "rescaleResumeStep", mistake: "the saved step was kept when the world size changed; it counts global batches of the old size" };
export const rescaleResumeStep = rescaleVariant({ none: true });
