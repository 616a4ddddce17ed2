import type { MutantInfo } from "../../engine/types.js";
import { logpVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "perTokenLogps",
  mistake: "the tokens to score are the last nKeep ids (input_ids[:, -nKeep:]), one step after the logit positions, not the ids at those positions",
};
export const perTokenLogps = logpVariant({ unshiftedTargets: true });
