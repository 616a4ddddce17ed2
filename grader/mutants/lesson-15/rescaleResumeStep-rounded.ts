import { rescaleVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "rescaleResumeStep", mistake: "rounded to the nearest step; MiniMind rounds down (integer division)" };
export const rescaleResumeStep = rescaleVariant({ rounded: true });
