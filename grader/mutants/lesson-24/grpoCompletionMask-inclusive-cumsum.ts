import type { MutantInfo } from "../../engine/types.js";
import * as tf from "../../../lib/tf.js";

export const mutant: MutantInfo = {
  exercise: "grpoCompletionMask",
  mistake: "the EOS token was dropped in rows that have one (rows without an EOS are right): a running count of EOS tokens that includes the current position ends the answer one token early",
};

/** "Keep a token while no EOS has been seen", with the inclusive running count: the EOS itself is dropped. */
export function grpoCompletionMask(completionIds: tf.Tensor2D, padMask: tf.Tensor2D, eosTokenId: number): tf.Tensor2D {
  return tf.tidy(() => {
    const real = tf.cast(padMask, "bool");
    const isEos = tf.cast(tf.logicalAnd(tf.equal(completionIds, tf.scalar(eosTokenId, "int32")), real), "int32");
    const seen = tf.cumsum(isEos, 1); // inclusive: the EOS position already counts itself
    return tf.cast(tf.logicalAnd(tf.equal(seen, tf.scalar(0, "int32")), real), "int32") as tf.Tensor2D;
  });
}
