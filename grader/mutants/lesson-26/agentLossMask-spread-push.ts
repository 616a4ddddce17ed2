import type { MutantInfo } from "../../engine/types.js";
import { packVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "agentLossMask",
  mistake: "a turn's ids or its observation were appended with push(...ids): spreading some 10^5 arguments overflows the call stack (RangeError); append in a loop or concatenate arrays",
};
export const agentLossMask = packVariant({ spreadPush: true });
