import type { MutantInfo } from "../../engine/types.js";
import { sourcesVariant } from "./_sources.js";

export const mutant: MutantInfo = {
  exercise: "resolveLogps",
  mistake: "'metrics' recomputes the proximal policy like 'recompute' (and only logs the approximations); only 'loglinear' skips the forward pass",
};
export const resolveLogps = sourcesVariant({ metricsSkipsForward: true });
