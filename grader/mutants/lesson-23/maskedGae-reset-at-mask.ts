import type { MutantInfo } from "../../engine/types.js";
import { gaeVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "maskedGae", mistake: "the recursion restarts at masked positions; MiniMind runs it over all R positions and masks only afterwards" };
export const maskedGae = gaeVariant({ resetAtMask: true });
