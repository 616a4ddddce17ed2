import type { MutantInfo } from "../../engine/types.js";
import { logpVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "perTokenLogps",
  mistake: "the sampler drew from softmax(logits / T): score the tokens under the same tempered distribution, or every ratio against the inference engine's log-probs is off",
};
export const perTokenLogps = logpVariant({ temperature: "ignored" });
