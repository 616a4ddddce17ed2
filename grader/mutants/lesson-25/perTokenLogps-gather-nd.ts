import type { MutantInfo } from "../../engine/types.js";
import { logpVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "perTokenLogps",
  mistake: "tf.gatherND has no gradient in TensorFlow.js, so the policy could not learn through these log-probs: pick with a one-hot multiply and sum",
};
export const perTokenLogps = logpVariant({ gatherNd: true });
