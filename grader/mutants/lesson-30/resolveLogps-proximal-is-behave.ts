import type { MutantInfo } from "../../engine/types.js";
import { sourcesVariant } from "./_sources.js";

export const mutant: MutantInfo = {
  exercise: "resolveLogps",
  mistake: "the decoupled loss takes its ratio against the recomputed proximal policy, not against the engine's log-probs",
};
export const resolveLogps = sourcesVariant({ proximalIsBehave: true });
