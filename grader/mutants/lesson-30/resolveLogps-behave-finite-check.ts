import type { MutantInfo } from "../../engine/types.js";
import { sourcesVariant } from "./_sources.js";

export const mutant: MutantInfo = {
  exercise: "resolveLogps",
  mistake: "the NaN/Inf check was applied to the behaviour log-probs too; AReaL checks only the proximal policy it is about to train against, and returns an engine log-prob of −Inf as it is",
};
export const resolveLogps = sourcesVariant({ behaveFiniteCheck: true });
