import { rescaleVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "rescaleResumeStep", mistake: "the ratio saved/current was floored before multiplying; multiply first, then divide and round down" };
export const rescaleResumeStep = rescaleVariant({ ratioFloored: true });
