import type { MutantInfo } from "../../engine/types.js";
import { logpVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "perTokenLogps",
  mistake: "dividing the log-probabilities by T is not the log-probability of the tempered distribution: scale the logits, then normalise",
};
export const perTokenLogps = logpVariant({ temperature: "after-log-softmax" });
