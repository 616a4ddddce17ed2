import type { MutantInfo } from "../../engine/types.js";
import { logpVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "perTokenLogps",
  mistake: "a logit is not a log-probability: apply log-softmax over the vocabulary before picking the token's entry",
};
export const perTokenLogps = logpVariant({ rawLogits: true });
