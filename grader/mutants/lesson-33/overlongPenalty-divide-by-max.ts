import type { MutantInfo } from "../../engine/types.js";
import { overlongVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "overlongPenalty", mistake: "the excess is divided by overlongTokens (the length of the ramp), not by maxResponseLength" };
export const overlongPenalty = overlongVariant({ divideByMax: true });
