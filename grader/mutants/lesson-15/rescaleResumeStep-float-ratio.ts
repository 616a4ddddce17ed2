import type { MutantInfo } from "../../engine/types.js";
import { rescaleVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "rescaleResumeStep", mistake: "the ratio saved/current was taken first, in floating point: 45 · (7/5) is 62.999…, which floors to 62; multiply first, then divide (MiniMind: step * saved_ws // current_ws)" };
export const rescaleResumeStep = rescaleVariant({ floatRatio: true });
