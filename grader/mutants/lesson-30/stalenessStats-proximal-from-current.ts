import { stalenessVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "stalenessStats", mistake: "proximal staleness was measured from currentVersion; the proximal policy is currentVersion − 1" };
export const stalenessStats = stalenessVariant({ proximalFromCurrent: true });
