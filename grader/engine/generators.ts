/**
 * Building blocks for seeded grader cases, shared by every lesson's grader.
 */
import * as tf from "../../lib/tf.js";
import { Rng } from "../../lib/random.js";

/** [B, R] float32 normals. */
export function normal2d(rng: Rng, B: number, R: number, mean = 0, std = 1): tf.Tensor2D {
  return tf.tensor2d(rng.normals(B * R, mean, std), [B, R]);
}

/** [B, R] float32 uniforms in [lo, hi). */
export function uniform2d(rng: Rng, B: number, R: number, lo: number, hi: number): tf.Tensor2D {
  return tf.tensor2d(rng.uniforms(B * R, lo, hi), [B, R]);
}

/** Row lengths for a ragged batch: each in [minLen, R], with row 0 full and (if B > 2) row 1 of minLen. */
export function raggedLengths(rng: Rng, B: number, R: number, minLen = 1): number[] {
  return Array.from({ length: B }, (_, b) => (b === 0 ? R : b === 1 && B > 2 ? minLen : rng.int(minLen, R)));
}

/** [B, R] float32 0/1 mask with row b keeping its first lengths[b] positions. */
export function prefixMask(lengths: readonly number[], R: number): tf.Tensor2D {
  const data = new Float32Array(lengths.length * R);
  lengths.forEach((len, b) => data.fill(1, b * R, b * R + Math.min(len, R)));
  return tf.tensor2d(data, [lengths.length, R]);
}

/** [B, R] float32 with `values[b]` at position lengths[b] − 1 and 0 elsewhere (a last-token reward). */
export function lastTokenValues(lengths: readonly number[], values: readonly number[], R: number): tf.Tensor2D {
  const data = new Float32Array(lengths.length * R);
  lengths.forEach((len, b) => {
    if (len > 0) data[b * R + len - 1] = values[b];
  });
  return tf.tensor2d(data, [lengths.length, R]);
}
