/**
 * Lesson 12 — Rotary position embeddings (RoPE): the cos/sin table and the rotation itself.
 *
 * Shapes: B sequences, S positions, H heads, D = head_dim (even). The table has one row per
 * position and D columns: the D/2 frequencies, written twice (once for each half of a head).
 * Read lessons/12-rope-and-kv-cache.md first; every function cites the MiniMind lines it mirrors
 * at commit d65ef2c (jingyaogong/minimind).
 */
import * as tf from "../../lib/tf.js";
import type { RopeScaling } from "../../lib/model/config.js";

/** The rotary table: row p holds cos(p·f) and sin(p·f) (times the YaRN attention factor). */
export interface RopeTable {
  /** [end, 2·⌊D/2⌋] float32 */
  cos: tf.Tensor2D;
  /** [end, 2·⌊D/2⌋] float32 */
  sin: tf.Tensor2D;
}

// BEGIN SOLUTION
/**
 * YaRN's ramp over the frequency indices: 0 for the fast (high-frequency) dimensions that keep
 * their frequency, 1 for the slow ones that are divided by `factor`, linear in between.
 * Computed in float64 like MiniMind's Python `math` calls; only the ramp itself is a tensor.
 */
function yarnRamp(dim: number, base: number, scaling: RopeScaling): tf.Tensor1D {
  const { originalMaxPositionEmbeddings: origMax, betaFast, betaSlow } = scaling;
  // The index i whose wavelength 2π/f_i fits `b` times into the original context.
  const indexFor = (b: number) => (dim * Math.log(origMax / (b * 2 * Math.PI))) / (2 * Math.log(base));
  const low = Math.max(Math.floor(indexFor(betaFast)), 0);
  const high = Math.min(Math.ceil(indexFor(betaSlow)), Math.floor(dim / 2) - 1);
  const indices = tf.range(0, Math.floor(dim / 2), 1, "float32");
  return tf.clipByValue(tf.div(tf.sub(indices, low), Math.max(high - low, 0.001)), 0, 1) as tf.Tensor1D;
}
// END SOLUTION

/**
 * The cos/sin table of rotary embeddings for positions 0 … end−1 (`dim` = D, `base` = θ).
 *
 * Returns two float32 [end, 2·⌊D/2⌋] tables: row p holds cos (or sin) of p times each of the
 * ⌊D/2⌋ frequencies, the half written twice, as MiniMind lays it out. With `ropeScaling` (YaRN)
 * both tables are multiplied by its attention factor, and the frequencies are rescaled only when
 * end > originalMaxPositionEmbeddings. Float32 as in PyTorch: each angle is rounded to float32.
 *
 * Align with: model/model_minimind.py:62-78
 */
export function ropeFrequencies(dim: number, end: number, base = 1e6, ropeScaling: RopeScaling | null = null): RopeTable {
  // BEGIN SOLUTION
  return tf.tidy(() => {
    const half = Math.floor(dim / 2);
    const exponents = tf.div(tf.range(0, 2 * half, 2, "float32"), dim); // 2i / D
    let freqs: tf.Tensor1D = tf.div(1, tf.pow(base, exponents));
    let attentionFactor = 1;
    if (ropeScaling !== null) {
      attentionFactor = ropeScaling.attentionFactor;
      if (end / ropeScaling.originalMaxPositionEmbeddings > 1) {
        const ramp = yarnRamp(dim, base, ropeScaling);
        freqs = tf.mul(freqs, tf.add(tf.sub(1, ramp), tf.div(ramp, ropeScaling.factor)));
      }
    }
    const angles = tf.outerProduct(tf.range(0, end, 1, "float32"), freqs); // [end, half]
    const table = (f: (x: tf.Tensor) => tf.Tensor) => tf.mul(tf.concat([f(angles), f(angles)], -1), attentionFactor) as tf.Tensor2D;
    return { cos: table(tf.cos), sin: table(tf.sin) };
  });
  // END SOLUTION
}

/** The rotated queries and keys, same shapes as the inputs. */
export interface RotatedQk {
  q: tf.Tensor4D;
  k: tf.Tensor4D;
}

/**
 * Rotates queries and keys by their positions, in MiniMind's rotate_half convention.
 *
 * `q`: [B, S, Hq, D], `k`: [B, S, Hkv, D] float32; `cos`, `sin`: [S, D], the table rows of these
 * S positions, shared by every batch row and head. Returns q and k rotated, same shapes;
 * differentiable in q and k. Position 0 (cos = 1, sin = 0) leaves a vector unchanged.
 *
 * Align with: model/model_minimind.py:80-84
 */
export function applyRope(q: tf.Tensor4D, k: tf.Tensor4D, cos: tf.Tensor2D, sin: tf.Tensor2D): RotatedQk {
  // BEGIN SOLUTION
  return tf.tidy(() => {
    const [S, D] = cos.shape;
    const cosB = tf.reshape(cos, [S, 1, D]);
    const sinB = tf.reshape(sin, [S, 1, D]);
    const rotateHalf = (x: tf.Tensor4D) => {
      const [first, second] = tf.split(x, 2, -1);
      return tf.concat([tf.neg(second), first], -1);
    };
    const rotate = (x: tf.Tensor4D) => tf.add(tf.mul(x, cosB), tf.mul(rotateHalf(x), sinB)) as tf.Tensor4D;
    return { q: rotate(q), k: rotate(k) };
  });
  // END SOLUTION
}
