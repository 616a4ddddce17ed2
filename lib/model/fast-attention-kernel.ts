/**
 * The attention core of lib/model/fast-attention.ts as one operation on typed arrays, with its
 * gradient written out: what the wasm backend runs in training.
 *
 * Why: on wasm a batched matMul is a plain loop (≈ 1.4 GFLOP/s at the tiny model's sizes,
 * measured), and the core is six of them per layer (two forward, four backward) plus the
 * transposes, the mask and the softmax around them: a quarter of a tiny training step
 * (`npm run bench` prints the profile). Here one pass per query row computes its scores, softmax
 * and weighted sum, visits only the keys the causal mask lets it see (half of them), and reads
 * q [B, S, Hq, D] and k, v [B, T, Hkv, D] where they lie (no transposes, no repeatKv).
 *
 * The math is lesson 11's (per query head h, its kv head g = ⌊h / nRep⌋, scale 1/√D):
 *   s_ij = q_i·k_j / √D − 1e9·[key j padded]   for keys j ≤ P + i (the causal mask)
 *   p_i  = softmax_j(s_i),   o_i = Σ_j p_ij v_j
 * and its gradient, given ∂o:
 *   ∂p_ij = ∂o_i·v_j,   ∂s_ij = p_ij (∂p_ij − Σ_j' p_ij' ∂p_ij')   (the softmax's Jacobian)
 *   ∂q_i = Σ_j ∂s_ij k_j / √D,   ∂k_j = Σ_i ∂s_ij q_i / √D,   ∂v_j = Σ_i p_ij ∂o_i
 * summed over the query heads that share a kv head. Sums run in double precision, so the values
 * match the tensor core's to float32 rounding (test/fast-attention-kernel.test.ts checks values
 * and gradients against it), not bit for bit; the cpu backend keeps the tensor core.
 *
 * What runs by default is the same loops compiled to WebAssembly SIMD (lib/model/wasm/
 * attention-core.as.ts, four float32 lanes at a time, float32 sums): at the tiny model's sizes one
 * layer's core, forward and backward, went from 35 to 9 ms (`npm run bench`'s profile, before and
 * after). The loops below are the readable version, and the fallback where the compiled module
 * cannot run.
 *
 * @answers lesson-11 attention
 */
import * as tf from "../tf.js";
import { wasmAttentionCore, type CoreShape } from "./wasm/attention-core.js";

/** Row offsets: query (b, i, h) in q [B, S, Hq, D], key (b, j, g) in k, v [B, T, Hkv, D]. */
const qRow = (c: CoreShape, b: number, i: number, h: number) => ((b * c.S + i) * c.Hq + h) * c.D;
const kRow = (c: CoreShape, b: number, j: number, g: number) => ((b * c.T + j) * c.Hkv + g) * c.D;

/**
 * out[j] = a[aAt .. aAt + D)·m[row j] for the `count` rows of m starting at mAt, `step` apart
 * (the rows of one kv head). Four rows at a time, so each a[d] is read once for four products.
 */
function dotRows(a: Float32Array, aAt: number, m: Float32Array, mAt: number, step: number, count: number, D: number, out: Float64Array): void {
  let j = 0;
  for (; j + 4 <= count; j += 4) {
    const r0 = mAt + j * step;
    const [r1, r2, r3] = [r0 + step, r0 + 2 * step, r0 + 3 * step];
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let d = 0; d < D; d++) {
      const x = a[aAt + d];
      s0 += x * m[r0 + d];
      s1 += x * m[r1 + d];
      s2 += x * m[r2 + d];
      s3 += x * m[r3 + d];
    }
    out[j] = s0;
    out[j + 1] = s1;
    out[j + 2] = s2;
    out[j + 3] = s3;
  }
  for (; j < count; j++) {
    const r = mAt + j * step;
    let sum = 0;
    for (let d = 0; d < D; d++) sum += a[aAt + d] * m[r + d];
    out[j] = sum;
  }
}

/** acc[0 .. D) += Σ_j w[wAt + j·wStep]·m[row j] over `count` rows of m (from mAt, `step` apart), four at a time. */
function addWeightedRows(acc: Float64Array, w: ArrayLike<number>, wAt: number, wStep: number, m: Float32Array, mAt: number, step: number, count: number, D: number): void {
  let j = 0;
  for (; j + 4 <= count; j += 4) {
    const r0 = mAt + j * step;
    const [r1, r2, r3] = [r0 + step, r0 + 2 * step, r0 + 3 * step];
    const w0 = w[wAt + j * wStep];
    const w1 = w[wAt + (j + 1) * wStep];
    const w2 = w[wAt + (j + 2) * wStep];
    const w3 = w[wAt + (j + 3) * wStep];
    for (let d = 0; d < D; d++) acc[d] += w0 * m[r0 + d] + w1 * m[r1 + d] + w2 * m[r2 + d] + w3 * m[r3 + d];
  }
  for (; j < count; j++) {
    const wj = w[wAt + j * wStep];
    const r = mAt + j * step;
    for (let d = 0; d < D; d++) acc[d] += wj * m[r + d];
  }
}

/** o = softmax(q·kᵀ/√D + masks)·v; also returns p, [B, Hq, S, T] (zeros past the causal limit), for the gradient. */
function forwardValues(c: CoreShape, q: Float32Array, k: Float32Array, v: Float32Array, keep: ArrayLike<number> | null): { out: Float32Array; probs: Float32Array } {
  // BEGIN ANSWER lesson-11
  const { B, S, T, Hq, Hkv, D } = c;
  const P = T - S;
  const nRep = Hq / Hkv;
  const scale = 1 / Math.sqrt(D);
  const kStep = Hkv * D;
  const out = new Float32Array(B * S * Hq * D);
  const probs = new Float32Array(B * Hq * S * T);
  const scores = new Float64Array(T);
  const acc = new Float64Array(D);
  for (let b = 0; b < B; b++)
    for (let h = 0; h < Hq; h++) {
      const first = kRow(c, b, 0, Math.floor(h / nRep));
      for (let i = 0; i < S; i++) {
        const qi = qRow(c, b, i, h);
        const pRow = ((b * Hq + h) * S + i) * T;
        const limit = P + i + 1; // keys j ≤ P + i
        dotRows(q, qi, k, first, kStep, limit, D, scores);
        let max = -Infinity;
        for (let j = 0; j < limit; j++) {
          scores[j] = scores[j] * scale + (keep !== null && keep[b * T + j] === 0 ? -1e9 : 0);
          if (scores[j] > max) max = scores[j];
        }
        let sum = 0;
        for (let j = 0; j < limit; j++) {
          scores[j] = Math.exp(scores[j] - max);
          sum += scores[j];
        }
        for (let j = 0; j < limit; j++) probs[pRow + j] = scores[j] / sum;
        acc.fill(0);
        addWeightedRows(acc, probs, pRow, 1, v, first, kStep, limit, D);
        out.set(acc, qi);
      }
    }
  return { out, probs };
  // END ANSWER
}

/** ∂q, ∂k, ∂v of the core from ∂o and the forward's p (see the module comment). */
function backwardValues(c: CoreShape, q: Float32Array, k: Float32Array, v: Float32Array, probs: Float32Array, dOut: Float32Array): [Float32Array, Float32Array, Float32Array] {
  // BEGIN ANSWER lesson-11
  const { B, S, T, Hq, Hkv, D } = c;
  const P = T - S;
  const nRep = Hq / Hkv;
  const scale = 1 / Math.sqrt(D);
  const kStep = Hkv * D;
  const qStep = Hq * D;
  const dq = new Float32Array(q.length);
  const dk = new Float32Array(k.length);
  const dv = new Float32Array(v.length);
  const dScores = new Float64Array(S * T); // ∂s of one (b, h), zeros past the causal limit
  const dp = new Float64Array(T);
  const acc = new Float64Array(D);
  for (let b = 0; b < B; b++)
    for (let g = 0; g < Hkv; g++) {
      const first = kRow(c, b, 0, g);
      for (let h = g * nRep; h < (g + 1) * nRep; h++) {
        const pHead = (b * Hq + h) * S * T;
        // ∂s row by row, then ∂q_i = Σ_j ∂s_ij k_j.
        dScores.fill(0);
        for (let i = 0; i < S; i++) {
          const qi = qRow(c, b, i, h);
          const limit = P + i + 1;
          dotRows(dOut, qi, v, first, kStep, limit, D, dp);
          let weighted = 0;
          for (let j = 0; j < limit; j++) weighted += probs[pHead + i * T + j] * dp[j];
          for (let j = 0; j < limit; j++) dScores[i * T + j] = probs[pHead + i * T + j] * (dp[j] - weighted) * scale;
          acc.fill(0);
          addWeightedRows(acc, dScores, i * T, 1, k, first, kStep, limit, D);
          dq.set(acc, qi);
        }
        // ∂k_j = Σ_i ∂s_ij q_i and ∂v_j = Σ_i p_ij ∂o_i over the queries that see key j (i ≥ j − P).
        const firstQ = qRow(c, b, 0, h);
        for (let j = 0; j < T; j++) {
          const from = Math.max(0, j - P);
          const kj = kRow(c, b, j, g);
          acc.fill(0);
          addWeightedRows(acc, dScores, from * T + j, T, q, firstQ + from * qStep, qStep, S - from, D);
          for (let d = 0; d < D; d++) dk[kj + d] += acc[d];
          acc.fill(0);
          addWeightedRows(acc, probs, pHead + from * T + j, T, dOut, firstQ + from * qStep, qStep, S - from, D);
          for (let d = 0; d < D; d++) dv[kj + d] += acc[d];
        }
      }
    }
  return [dq, dk, dv];
  // END ANSWER
}

/** The operation's name in tf.profile's kernel list and on the gradient tape (tools/bench/step-profile.ts reads it). */
export const ATTENTION_KERNEL_NAME = "attentionCoreKernel";

/**
 * Which loops run the core: the ones above ("typed arrays", the readable version), or the same
 * loops compiled to WebAssembly SIMD (lib/model/wasm/attention-core.ts), where that module runs
 * and D is a multiple of 4 ("compiled", the default; else the typed arrays).
 */
export type CoreLoops = "compiled" | "typed arrays";

/**
 * The attention core for q [B, S, Hq, D] and k, v [B, T, Hkv, D] (T = P + S, causal on the last S
 * keys; `keep` [B, T] the padding mask, a constant), differentiable in q, k and v. Returns
 * [B, S, Hq, D], what lib/model/fast-attention.ts's `fastAttentionCore` returns.
 */
export function attentionCoreKernel(q: tf.Tensor4D, k: tf.Tensor4D, v: tf.Tensor4D, keep: tf.Tensor2D | null = null, loops: CoreLoops = "compiled"): tf.Tensor4D {
  const [B, S, Hq, D] = q.shape;
  const [, T, Hkv] = k.shape;
  const c: CoreShape = { B, S, T, Hq, Hkv, D };
  const keepValues = keep === null ? null : (keep.dataSync() as ArrayLike<number>);
  const compiled = loops === "compiled" ? wasmAttentionCore(D) : null;
  const run = compiled ?? { forward: forwardValues, backward: backwardValues };
  const core = tf.customGrad((qIn, kIn, vIn, save) => {
    const values = [qIn, kIn, vIn].map((t) => (t as tf.Tensor).dataSync() as Float32Array);
    const { out, probs } = run.forward(c, values[0], values[1], values[2], keepValues);
    (save as tf.GradSaveFunc)([]);
    return {
      value: tf.tensor4d(out, [B, S, Hq, D]),
      gradFunc: (dy: tf.Tensor) => {
        const [dq, dk, dv] = run.backward(c, values[0], values[1], values[2], probs, dy.dataSync() as Float32Array);
        return [tf.tensor4d(dq, q.shape), tf.tensor4d(dk, k.shape), tf.tensor4d(dv, v.shape)];
      },
    };
  });
  // The scope's name is what the engine records the custom-gradient operation under.
  return tf.tidy(ATTENTION_KERNEL_NAME, () => core(q, k, v) as tf.Tensor4D);
}
