import { rescaleVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "rescaleResumeStep", mistake: "the ratio is upside down: the step scales by saved/current (more processes now means fewer steps)" };
export const rescaleResumeStep = rescaleVariant({ inverted: true });
