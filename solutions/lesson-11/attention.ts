/**
 * Lesson 11 — Attention: MiniMind's grouped-query self-attention, one layer.
 *
 * Shapes: B sequences, S new positions, P cached positions (T = P + S keys in all), H = hidden
 * size, Hq query heads, Hkv key/value heads (Hq = Hkv·nRep), D = head_dim. Weights use PyTorch's
 * layout [out, in]. Read lessons/11-attention.md first; every function cites the MiniMind lines it
 * mirrors at commit d65ef2c (jingyaogong/minimind).
 *
 * `rmsNorm` (lesson 9) and `applyRope` (lesson 12) are imported from the reference solutions, so
 * this lesson works whatever your progress on those two.
 */
import * as tf from "../../lib/tf.js";
import { linear } from "../../lib/model/linear.js";
import type { AttentionOptions, AttentionResult, AttentionWeights } from "../../lib/model/types.js";
import { rmsNorm } from "../lesson-9/rmsnorm.js";
import { applyRope } from "../lesson-12/rope.js";

/**
 * Grouped-query attention's sharing of key/value heads, as MiniMind lays it out: query head h
 * reads kv head ⌊h / nRep⌋.
 *
 * `x`: [B, T, Hkv, D] → [B, T, Hkv·nRep, D], same dtype. With nRep = 1 it returns `x` itself, as
 * MiniMind does.
 *
 * Align with: model/model_minimind.py:86-89
 */
export function repeatKv(x: tf.Tensor4D, nRep: number): tf.Tensor4D {
  // BEGIN SOLUTION
  if (nRep === 1) return x;
  const [B, T, Hkv, D] = x.shape;
  return tf.tidy(() => {
    // A copy axis after the kv heads; B and T are folded because tfjs's tile has no gradient above rank 4.
    const withCopyAxis = tf.reshape(x, [B * T, Hkv, 1, D]);
    return tf.reshape(tf.tile(withCopyAxis, [1, 1, nRep, 1]), [B, T, Hkv * nRep, D]) as tf.Tensor4D;
  });
  // END SOLUTION
}

// The weights, options and result of `attention`: declared in lib/model/types.ts, which the model uses too.
export type { AttentionOptions, AttentionResult, AttentionWeights };

// BEGIN SOLUTION
/** Queries, keys and values of one layer, ready to attend. */
export interface ProjectedQkv {
  /** [B, S, Hq, D], normed and rotated */
  q: tf.Tensor4D;
  /** [B, T, Hkv, D], past and new, normed and rotated */
  k: tf.Tensor4D;
  /** [B, T, Hkv, D], past and new */
  v: tf.Tensor4D;
}

/**
 * The first half of `attention`: projections, QK-norm, RoPE, and the cache concatenation. Exported
 * because lib/model's fast path (lib/model/fast-attention.ts) shares them and replaces only the
 * attention core.
 */
export function projectQkv(x: tf.Tensor3D, weights: AttentionWeights, opts: AttentionOptions): ProjectedQkv {
  return tf.tidy(() => {
    const [B, S] = x.shape;
    const D = weights.wq.shape[0] / opts.numHeads;
    const eps = opts.eps ?? 1e-6;
    const heads = (w: tf.Tensor2D, n: number) => tf.reshape(linear(x, w), [B, S, n, D]) as tf.Tensor4D;
    const qNormed = rmsNorm(heads(weights.wq, opts.numHeads), weights.qNorm, eps) as tf.Tensor4D;
    const kNormed = rmsNorm(heads(weights.wk, opts.numKvHeads), weights.kNorm, eps) as tf.Tensor4D;
    const { q, k: kNew } = applyRope(qNormed, kNormed, opts.cos, opts.sin);
    const vNew = heads(weights.wv, opts.numKvHeads);
    const past = opts.pastKv ?? null;
    if (!past) return { q, k: kNew, v: vNew };
    return { q, k: tf.concat([past.k, kNew], 1) as tf.Tensor4D, v: tf.concat([past.v, vNew], 1) as tf.Tensor4D };
  });
}

/**
 * [S, T] additive causal mask for S new queries after P = T − S cached keys: query i may read
 * key j when j ≤ P + i, and gets −∞ elsewhere (MiniMind's triu(1) on the last S columns).
 */
function causalMask(S: number, T: number): tf.Tensor2D {
  const P = T - S;
  const data = new Float32Array(S * T);
  for (let i = 0; i < S; i++) for (let j = P + i + 1; j < T; j++) data[i * T + j] = -Infinity;
  return tf.tensor2d(data, [S, T]);
}
// END SOLUTION

/**
 * One grouped-query self-attention layer, as MiniMind's explicit (non-fused) path computes it:
 * QK-norm, RoPE at positions P … P + S − 1, causal over the P cached and S new keys, padded keys
 * (attentionMask 0) pushed to −1e9 rather than −∞. `x`: [B, S, H] float32. Returns `output`
 * [B, S, H] and, with `useCache`, `presentKv`: past and new keys/values [B, T, Hkv, D], normed and
 * rotated, before repeatKv. No cache (P = 0) and no mask are the common case.
 *
 * Align with: model/model_minimind.py:111-134
 */
export function attention(x: tf.Tensor3D, weights: AttentionWeights, opts: AttentionOptions): AttentionResult {
  // BEGIN SOLUTION
  return tf.tidy(() => {
    const { q, k, v } = projectQkv(x, weights, opts);
    const [B, S, Hq, D] = q.shape;
    const T = k.shape[1];
    const nRep = Hq / opts.numKvHeads;
    const byHead = (t: tf.Tensor4D) => tf.transpose(t, [0, 2, 1, 3]); // [B, S|T, h, D] → [B, h, S|T, D]
    const scores = tf.div(tf.matMul(byHead(q), byHead(repeatKv(k, nRep)), false, true), Math.sqrt(D)); // [B, Hq, S, T]
    let masked = tf.add(scores, causalMask(S, T));
    if (opts.attentionMask) {
      const keep = tf.cast(tf.reshape(opts.attentionMask, [B, 1, 1, T]), "float32");
      masked = tf.add(masked, tf.mul(tf.sub(1, keep), -1e9));
    }
    const mixed = tf.matMul(tf.softmax(masked, -1), byHead(repeatKv(v, nRep))); // [B, Hq, S, D]
    const merged = tf.reshape(tf.transpose(mixed, [0, 2, 1, 3]), [B, S, Hq * D]);
    return { output: linear(merged, weights.wo) as tf.Tensor3D, presentKv: opts.useCache ? { k, v } : undefined };
  });
  // END SOLUTION
}
