import type { MutantInfo } from "../../engine/types.js";
import { overlongVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "overlongPenalty", mistake: "the ramp starts overlongTokens before the limit: excess = length − (maxResponseLength − overlongTokens)" };
export const overlongPenalty = overlongVariant({ thresholdAtMax: true });
