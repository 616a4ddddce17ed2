import type { MutantInfo } from "../../engine/types.js";
import { mismatchVariant } from "./_sources.js";

export const mutant: MutantInfo = {
  exercise: "mismatchKl",
  mistake: "with no valid token AReaL logs nothing: return null, not a perfect-looking 0",
};
export const mismatchKl = mismatchVariant({ zerosWhenEmpty: true });
