import { approxVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = {
  exercise: "proxLogpApproximations",
  mistake: "rollout was the oldLogp tensor itself; return a copy (tf.clone), so that disposing the approximations never frees the caller's log-probs",
};
export const proxLogpApproximations = approxVariant({ rolloutNotCopied: true });
