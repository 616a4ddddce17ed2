import type { MutantInfo } from "../../engine/types.js";
import { logpVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "perTokenLogps",
  mistake: "the log-sum-exp did not subtract the row's maximum: exp of a logit above about 88 overflows float32 to Inf; use tf.logSoftmax (or subtract the max first)",
};
export const perTokenLogps = logpVariant({ naiveLogSumExp: true });
