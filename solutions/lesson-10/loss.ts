/**
 * Lesson 10 — The forward pass and the loss shift.
 *
 * Shapes: B sequences of T positions, V = vocabSize. `logits[b, t]` is the model's prediction made
 * after reading tokens 0..t, so it is scored against the token at t + 1.
 * Read lessons/10-forward-and-loss-shift.md first; the function cites the MiniMind lines it
 * mirrors at commit d65ef2c (jingyaogong/minimind).
 */
import * as tf from "../../lib/tf.js";

/**
 * Next-token cross-entropy with the one-position shift and ignored labels.
 *
 * `logits`: [B, T, V] float32; `labels`: [B, T] int32, where `ignoreIndex` (−100) marks positions
 * that are not scored (prompt, padding). Returns a float32 scalar: the mean over every counted
 * token of the batch (not a mean of per-sequence means), differentiable in `logits`. When nothing
 * is counted (every label ignored, or T = 1) the loss is 0/0 = NaN, as PyTorch's `F.cross_entropy`.
 *
 * Align with: model/model_minimind.py:250-252
 */
export function causalLmLoss(logits: tf.Tensor3D, labels: tf.Tensor2D, ignoreIndex = -100): tf.Scalar {
  // BEGIN SOLUTION
  return tf.tidy(() => {
    const [B, T, V] = logits.shape;
    const predictions = tf.reshape(tf.slice(logits, [0, 0, 0], [B, T - 1, V]), [-1, V]); // [N', V]
    const targets = tf.reshape(tf.slice(labels, [0, 1], [B, T - 1]), [-1]); // [N'] int32
    const counted = tf.notEqual(targets, tf.scalar(ignoreIndex, "int32")); // [N'] bool
    const safeTargets = tf.where(counted, targets, tf.zerosLike(targets)); // any valid class id
    const targetLogProbs = tf.sum(tf.mul(tf.logSoftmax(predictions), tf.oneHot(safeTargets, V)), -1); // [N']
    const countedMask = tf.cast(counted, "float32");
    return tf.div(tf.neg(tf.sum(tf.mul(targetLogProbs, countedMask))), tf.sum(countedMask)) as tf.Scalar;
  });
  // END SOLUTION
}
