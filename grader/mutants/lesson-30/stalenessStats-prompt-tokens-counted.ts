import { stalenessVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "stalenessStats", mistake: "tokens of version −1 were counted; only generated tokens (version ≥ 0) have a staleness" };
export const stalenessStats = stalenessVariant({ promptTokensCounted: true });
