/**
 * Deliberately broken implementations of lesson 23, used by test/engine.test.ts to prove that the
 * grader reports hangs, crashes, exceptions, leaks and mutated inputs instead of falling over.
 */
import * as tf from "../../../lib/tf.js";

/** Correct (k3 over the masked tokens): the other functions' failures must not stop it passing. */
export function referenceKlPenalty(newLogps: tf.Tensor2D, refLogps: tf.Tensor2D, mask: tf.Tensor2D): tf.Scalar {
  return tf.tidy(() => {
    const u = tf.sub(refLogps, newLogps);
    const k3 = tf.sub(tf.sub(tf.exp(u), u), 1);
    return tf.div(tf.sum(tf.mul(k3, mask)), tf.maximum(tf.sum(mask), 1)) as tf.Scalar;
  });
}

/** Never returns: the watchdog must stop it. */
export function responseLogpPositions(_promptLens: tf.Tensor1D, _responseLen: number): tf.Tensor2D {
  for (;;) {
    // spin
  }
}

/** Throws a learner-style TypeError from this file. */
export function maskedGae(tokenRewards: tf.Tensor2D): never {
  const shape = (tokenRewards as unknown as { shap: number[] }).shap;
  throw new TypeError(`cannot read the length of ${shape}`);
}

/** Ends the grading process. */
export function ppoPolicyLoss(): never {
  process.exit(3);
}

/** Right value, but leaks every intermediate and writes into its input's buffer. */
export function clippedValueLoss(values: tf.Tensor2D, oldValues: tf.Tensor2D, returns: tf.Tensor2D, mask: tf.Tensor2D, c: number): tf.Scalar {
  const lo = tf.sub(oldValues, c);
  const hi = tf.add(oldValues, c);
  const clipped = tf.minimum(tf.maximum(values, lo), hi);
  const worst = tf.maximum(tf.square(tf.sub(values, returns)), tf.square(tf.sub(clipped, returns)));
  const loss = tf.mul(0.5, tf.div(tf.sum(tf.mul(worst, mask)), tf.maximum(tf.sum(mask), 1))) as tf.Scalar;
  (mask.dataSync() as Float32Array).fill(1);
  return loss;
}
