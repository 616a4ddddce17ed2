import type { MutantInfo } from "../../engine/types.js";
import { sourcesVariant } from "./_sources.js";

export const mutant: MutantInfo = {
  exercise: "resolveLogps",
  mistake: "the batch's own tensors were returned as behave and proximal; return new tensors (tf.clone), so that disposing the result never frees the batch",
};
export const resolveLogps = sourcesVariant({ returnsInputs: true });
