import type { MutantInfo } from "../../engine/types.js";
import { sourcesVariant } from "./_sources.js";

export const mutant: MutantInfo = {
  exercise: "resolveLogps",
  mistake: "with recompute_logprob and the coupled loss, the recomputed log-probs replace the engine's as old_logp (and as the proximal policy)",
};
export const resolveLogps = sourcesVariant({ recomputeIgnored: true });
