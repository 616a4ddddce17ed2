import type { MutantInfo } from "../../engine/types.js";
import { logpVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "perTokenLogps",
  mistake: "log(softmax(z)) was taken in two steps: a probability below about e^−104 underflows to 0 in float32 and its log is −Inf; use tf.logSoftmax",
};
export const perTokenLogps = logpVariant({ logOfSoftmax: true });
