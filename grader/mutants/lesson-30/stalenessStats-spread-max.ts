import { stalenessVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = {
  exercise: "stalenessStats",
  mistake: "max and min were taken with Math.max(...lag) / Math.min(...lag), which throws a RangeError (too many arguments) once a batch holds a few hundred thousand tokens; reduce with a loop instead",
};
export const stalenessStats = stalenessVariant({ spreadMaxMin: true });
