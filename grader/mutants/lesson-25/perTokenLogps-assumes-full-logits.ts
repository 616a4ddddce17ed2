import type { MutantInfo } from "../../engine/types.js";
import { logpVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "perTokenLogps",
  mistake: "the logits may cover only the last nKeep + 1 positions (logits_to_keep): slice them from their own length L, not from the token count T",
};
export const perTokenLogps = logpVariant({ assumesFullLogits: true });
