/**
 * Parametrised wrong versions of lesson 10's loss. Each mutant file picks one flaw, so every
 * mutant differs from the reference in exactly one plausible way.
 */
import * as tf from "../../lib/tf.js";

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
  /** log(softmax(z)): the softmax underflows to 0 for a logit far below the row's max, and log 0 = −∞. */
  logOfSoftmax?: boolean;
  /** z − log Σ exp(z) without subtracting the max first: exp overflows float32 above ≈ 88. */
  naiveLogSumExp?: boolean;
  /** Another default for the ignore index (the pad id 0) when the argument is left out. */
  defaultIgnoreIndex?: number;
  /** The count of scored tokens taken from labels before the shift (labels[:, 0] included, labels[:, T−1]… still). */
  countBeforeShift?: boolean;
  /** Each row's counted targets taken as one run: from its first counted position, as many as it counts (holes ignored). */
  contiguousSpan?: boolean;
}

/** [B, n] float mask: per row, `count` ones from the first counted position on (as if the scored part had no holes). */
function contiguousMask(counted: tf.Tensor): tf.Tensor {
  const [B, n] = counted.shape;
  const values = counted.dataSync();
  const out = new Float32Array(B * n);
  for (let b = 0; b < B; b++) {
    let first = -1;
    let count = 0;
    for (let t = 0; t < n; t++) if (values[b * n + t]) (first < 0 ? (first = t) : 0, count++);
    for (let t = first; first >= 0 && t < Math.min(n, first + count); t++) out[b * n + t] = 1;
  }
  return tf.tensor2d(out, [B, n]);
}

export function lossVariant(flaws: LossFlaws) {
  return (logits: tf.Tensor3D, labels: tf.Tensor2D, ignoreIndex = flaws.defaultIgnoreIndex ?? -100): tf.Scalar =>
    tf.tidy(() => {
      const [B, T, V] = logits.shape;
      const n = flaws.noShift ? T : T - 1;
      const logitStart = flaws.shiftBackwards ? 1 : 0;
      const labelStart = flaws.noShift || flaws.shiftBackwards ? 0 : 1;
      const predictions = tf.slice(logits, [0, logitStart, 0], [B, n, V]); // [B, n, V]
      const targets = tf.slice(labels, [0, labelStart], [B, n]); // [B, n]
      const counted = tf.notEqual(targets, tf.scalar(ignoreIndex, "int32"));
      const safeTargets = tf.where(counted, targets, tf.zerosLike(targets));
      const scores = flaws.rawLogits
        ? predictions
        : flaws.logOfSoftmax
          ? tf.log(tf.softmax(predictions))
          : flaws.naiveLogSumExp
            ? tf.sub(predictions, tf.log(tf.sum(tf.exp(predictions), -1, true)))
            : tf.logSoftmax(predictions);
      const picked = tf.sum(tf.mul(scores, tf.oneHot(safeTargets, V)), -1); // [B, n]
      const weights = flaws.ignoredAsClassZero || flaws.countIgnored ? tf.onesLike(picked) : flaws.contiguousSpan ? contiguousMask(counted) : tf.cast(counted, "float32");
      const numerators = flaws.countIgnored ? tf.mul(picked, tf.cast(counted, "float32")) : tf.mul(picked, weights);
      if (flaws.perSequenceMean) return tf.neg(tf.mean(tf.div(tf.sum(numerators, 1), tf.sum(weights, 1)))) as tf.Scalar;
      if (flaws.countBeforeShift) return tf.div(tf.neg(tf.sum(numerators)), tf.sum(tf.cast(tf.notEqual(tf.slice(labels, [0, 0], [B, n]), tf.scalar(ignoreIndex, "int32")), "float32"))) as tf.Scalar;
      return tf.div(tf.neg(tf.sum(numerators)), tf.sum(weights)) as tf.Scalar;
    });
}
