import type { MutantInfo } from "../../engine/types.js";
import { sourcesVariant } from "./_sources.js";

export const mutant: MutantInfo = {
  exercise: "resolveLogps",
  mistake: "a proximal policy holding NaN or ±Inf must be refused, not trained on",
};
export const resolveLogps = sourcesVariant({ noFiniteCheck: true });
