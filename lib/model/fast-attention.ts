/**
 * A faster attention for training on CPU: the same numbers as lesson 11's `attention`, with its
 * core (scores, masks, softmax, weighted sum) rearranged for the wasm backend.
 *
 * Where the time went when this was written: the wasm backend's own batched matMul was a plain
 * loop (only a 2-D product reached XNNPACK; lib/wasm-kernels.ts now gives wasm a compiled product
 * for both, and on wasm the core below is the compiled kernel anyway), fastest when both operands
 * are contiguous along the summed axis, i.e. the form a·bᵀ. The readable core spends much of its time in `repeatKv` (a tile, and its gradient) and in
 * products over many small [S, T] matrices. This core:
 *   1. groups the queries by the kv head they share: q [B, S, Hq, D] → [B, Hkv, nRep·S, D], so
 *      each kv head meets all its nRep·S queries in one product (fewer, larger matrices) and
 *      repeatKv is never materialised, nor its gradient;
 *   2. writes both forward products as a·bᵀ (v is transposed explicitly, a cheap copy).
 * A hand-written backward (tf.customGrad, every product as a·bᵀ) measured no faster than tfjs's
 * own gradients of this form, so there is none. `npm run bench` measures both cores; lesson 11's
 * `attention` stays the readable reference and test/model.test.ts checks that this one matches
 * it, values and gradients.
 *
 * Being lesson 11's answer, it is not importable by an exercise while lesson 11 is graded, and a
 * student edition without lesson 11's solution ships it withheld: the `BEGIN ANSWER` regions
 * below become their `EDITION:` line (`fastAttention` is then the resolver's attention: the
 * learner's when it passes, else "finish lesson 11 first") or a throw saying so
 * (grader/engine/answers.ts describes the markers).
 *
 * @answers lesson-11 attention
 */
import * as tf from "../tf.js";
import { attentionCoreKernel } from "./fast-attention-kernel.js";
import { linear } from "./linear.js";
import { REFERENCE_PIECES, referenceProjectQkv as projectQkv } from "./pieces.js";
import type { AttentionOptions, AttentionResult, AttentionWeights } from "./types.js";

/**
 * [B or 1, 1, nRep·S, T] additive mask for grouped rows (row r is query r mod S, at position
 * P + r mod S): −∞ where key j > P + r mod S (causal, last S columns), −1e9 on padded keys
 * (MiniMind's (1 − mask)·(−1e9)), 0 elsewhere.
 */
function groupedBias(rows: number, S: number, T: number, keep: tf.Tensor2D | null): tf.Tensor4D {
  // BEGIN ANSWER lesson-11
  const P = T - S;
  const causal = new Float32Array(rows * T);
  for (let r = 0; r < rows; r++) for (let j = P + (r % S) + 1; j < T; j++) causal[r * T + j] = -Infinity;
  const bias = tf.tensor4d(causal, [1, 1, rows, T]);
  if (!keep) return bias;
  return tf.tidy(() => tf.add(bias, tf.reshape(tf.mul(tf.sub(1, tf.cast(keep, "float32")), -1e9), [keep.shape[0], 1, 1, T])) as tf.Tensor4D);
  // END ANSWER
}

/** softmax(q·kᵀ/√D + bias)·v for grouped queries q [B, Hkv, R, D] and k, v [B, Hkv, T, D]: [B, Hkv, R, D]. */
function groupedCore(q: tf.Tensor4D, k: tf.Tensor4D, v: tf.Tensor4D, bias: tf.Tensor4D): tf.Tensor4D {
  // BEGIN ANSWER lesson-11
  const probs = tf.softmax(tf.add(tf.div(tf.matMul(q, k, false, true), Math.sqrt(q.shape[3])), bias));
  return tf.matMul(probs, tf.transpose(v, [0, 1, 3, 2]), false, true) as tf.Tensor4D;
  // END ANSWER
}

/**
 * The attention core for q [B, S, Hq, D] and k, v [B, T, Hkv, D] (T = P + S, causal on the last S
 * keys, `keep` [B, T] the padding mask, a constant). Returns [B, S, Hq, D]. On wasm it is one
 * typed-array operation (lib/model/fast-attention-kernel.ts says why), elsewhere `groupedAttentionCore`.
 */
export function fastAttentionCore(q: tf.Tensor4D, k: tf.Tensor4D, v: tf.Tensor4D, keep: tf.Tensor2D | null = null): tf.Tensor4D {
  // Only a choice: both cores are answer regions (withheld in an edition without lesson 11).
  return tf.getBackend() === "wasm" ? attentionCoreKernel(q, k, v, keep) : groupedAttentionCore(q, k, v, keep);
}

/** `fastAttentionCore` in tensor ops: queries grouped by their kv head, every product as a·bᵀ. */
export function groupedAttentionCore(q: tf.Tensor4D, k: tf.Tensor4D, v: tf.Tensor4D, keep: tf.Tensor2D | null = null): tf.Tensor4D {
  // BEGIN ANSWER lesson-11
  return tf.tidy(() => {
    const [B, S, Hq, D] = q.shape;
    const [, T, Hkv] = k.shape;
    const rows = (Hq / Hkv) * S;
    // Query head h = g·nRep + r shares kv head g: [B, Hq, S, D] is [B, Hkv, nRep·S, D] in memory.
    const grouped = tf.reshape(tf.transpose(q, [0, 2, 1, 3]), [B, Hkv, rows, D]) as tf.Tensor4D;
    const byHead = (t: tf.Tensor4D) => tf.transpose(t, [0, 2, 1, 3]) as tf.Tensor4D;
    const out = groupedCore(grouped, byHead(k), byHead(v), groupedBias(rows, S, T, keep));
    return tf.transpose(tf.reshape(out, [B, Hq, S, D]), [0, 2, 1, 3]) as tf.Tensor4D;
  });
  // END ANSWER
}

/**
 * Lesson 11's `attention` with the rearranged core: same inputs, same outputs (up to float
 * rounding). Steps 1-4 (projections, QK-norm, RoPE, cache) are the reference's own `projectQkv`.
 * In a student edition without lesson 11's solution it is the resolver's attention instead.
 *
 * Align with: model/model_minimind.py:111-134
 */
export function fastAttention(x: tf.Tensor3D, weights: AttentionWeights, opts: AttentionOptions): AttentionResult {
  // BEGIN ANSWER lesson-11
  return tf.tidy(() => {
    const { q, k, v } = projectQkv(x, weights, opts);
    const [B, S, Hq, D] = q.shape;
    const mixed = fastAttentionCore(q, k, v, opts.attentionMask ?? null);
    const output = linear(tf.reshape(mixed, [B, S, Hq * D]), weights.wo) as tf.Tensor3D;
    return { output, presentKv: opts.useCache ? { k, v } : undefined };
  });
  // EDITION: return REFERENCE_PIECES.attention(x, weights, opts);
  // END ANSWER
}
