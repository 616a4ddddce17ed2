/**
 * Parametrised wrong versions of lesson 10's loss. Each mutant file picks one flaw, so every
 * mutant differs from the reference in exactly one plausible way.
 */
import * as tf from "../../../lib/tf.js";

export interface LossFlaws {
  /** logits[:, t] scored against labels[:, t]: the shift forgotten. */
  noShift?: boolean;
  /** logits[:, 1:] scored against labels[:, :-1]: shifted the wrong way. */
  shiftBackwards?: boolean;
  /** Divides by every pair, ignored ones included. */
  countIgnored?: boolean;
  /** A mean per sequence, then a mean over sequences. */
  perSequenceMean?: boolean;
  /** −logit[label] instead of −log softmax(logits)[label]. */
  rawLogits?: boolean;
  /** Ignored labels replaced by class 0 and scored. */
  ignoredAsClassZero?: boolean;
}

export function lossVariant(flaws: LossFlaws) {
  return (logits: tf.Tensor3D, labels: tf.Tensor2D, ignoreIndex = -100): tf.Scalar =>
    tf.tidy(() => {
      const [B, T, V] = logits.shape;
      const n = flaws.noShift ? T : T - 1;
      const logitStart = flaws.shiftBackwards ? 1 : 0;
      const labelStart = flaws.noShift || flaws.shiftBackwards ? 0 : 1;
      const predictions = tf.slice(logits, [0, logitStart, 0], [B, n, V]); // [B, n, V]
      const targets = tf.slice(labels, [0, labelStart], [B, n]); // [B, n]
      const counted = tf.notEqual(targets, tf.scalar(ignoreIndex, "int32"));
      const safeTargets = tf.where(counted, targets, tf.zerosLike(targets));
      const scores = flaws.rawLogits ? predictions : tf.logSoftmax(predictions);
      const picked = tf.sum(tf.mul(scores, tf.oneHot(safeTargets, V)), -1); // [B, n]
      const weights = flaws.ignoredAsClassZero || flaws.countIgnored ? tf.onesLike(picked) : tf.cast(counted, "float32");
      const numerators = flaws.countIgnored ? tf.mul(picked, tf.cast(counted, "float32")) : tf.mul(picked, weights);
      if (flaws.perSequenceMean) return tf.neg(tf.mean(tf.div(tf.sum(numerators, 1), tf.sum(weights, 1)))) as tf.Scalar;
      return tf.div(tf.neg(tf.sum(numerators)), tf.sum(weights)) as tf.Scalar;
    });
}
