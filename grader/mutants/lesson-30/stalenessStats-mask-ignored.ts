import { stalenessVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "stalenessStats", mistake: "the mask was ignored, so padding counted as stale tokens; count only tokens where mask is true" };
export const stalenessStats = stalenessVariant({ maskIgnored: true });
