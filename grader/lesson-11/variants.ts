/**
 * Parametrised wrong versions of lesson 11's functions. Each mutant file picks one flaw, so every
 * mutant differs from the reference in exactly one plausible way.
 */
import * as tf from "../../lib/tf.js";
import { linear } from "../../lib/model/linear.js";
import { rmsNorm } from "../../solutions/lesson-9/rmsnorm.js";
import { applyRope } from "../../solutions/lesson-12/rope.js";
import type { AttentionOptions, AttentionWeights } from "../../solutions/lesson-11/attention.js";

export type RepeatFlaw =
  /** kv heads cycled: query head h reads kv head h mod Hkv (tile instead of repeat_interleave). */
  | "tiled"
  /** The copies made along the positions instead of the heads. */
  | "sequenceAxis"
  /** The copy axis put after head_dim, which interleaves the numbers of neighbouring heads. */
  | "afterHeadDim";

export function repeatKvVariant(flaw: RepeatFlaw | null) {
  return (x: tf.Tensor4D, nRep: number): tf.Tensor4D =>
    tf.tidy(() => {
      const [B, T, Hkv, D] = x.shape;
      if (nRep === 1) return x.clone();
      if (flaw === "tiled") return tf.tile(x, [1, 1, nRep, 1]) as tf.Tensor4D;
      if (flaw === "sequenceAxis") return tf.reshape(tf.tile(x, [1, nRep, 1, 1]), [B, T, Hkv * nRep, D]) as tf.Tensor4D;
      if (flaw === "afterHeadDim") return tf.reshape(tf.tile(tf.reshape(x, [B * T, Hkv, D, 1]), [1, 1, 1, nRep]), [B, T, Hkv * nRep, D]) as tf.Tensor4D;
      return tf.reshape(tf.tile(tf.reshape(x, [B * T, Hkv, 1, D]), [1, 1, nRep, 1]), [B, T, Hkv * nRep, D]) as tf.Tensor4D;
    });
}

export interface AttentionFlaws {
  /** RoPE first, then QK-norm. */
  ropeBeforeNorm?: boolean;
  /** QK-norm left out. */
  noQkNorm?: boolean;
  /** Scores divided by D instead of √D. */
  scaleByD?: boolean;
  /** The causal triangle laid over the first S key columns instead of the last S. */
  causalFirstColumns?: boolean;
  /** The padding mask ignored. */
  noPaddingMask?: boolean;
  /** The cache keeps the keys/values after repeatKv. */
  cacheAfterRepeat?: boolean;
  /** [B, Hq, S, D] reshaped to [B, S, Hq·D] without moving the head axis back. */
  mergeWithoutTranspose?: boolean;
  /** GQA sharing with kv head h mod Hkv. */
  repeat?: RepeatFlaw;
  /** Another default ε for the QK-norm when `eps` is left out (MiniMind's rms_norm_eps default is 1e-6 here). */
  epsDefault?: number;
  /** presentKv returned when `useCache` is left out (the contract: only when it is true). */
  cacheByDefault?: boolean;
  /** `pastKv !== null` and `attentionMask !== null` as the checks: a left-out (undefined) option is read. */
  nullChecksOnly?: boolean;
  /** The mask turned into a count of pad positions, which are then taken to be the leading ones. */
  padFromLeft?: boolean;
  /** Padded keys get −∞ instead of −1e9: a query that sees only padded keys gets NaN. */
  padMinusInfinity?: boolean;
}

/** [B, T] mask with as many leading zeros per row as the given mask has zeros. */
function leadingPadMask(mask: tf.Tensor2D): tf.Tensor2D {
  const [B, T] = mask.shape;
  const values = mask.dataSync();
  const out = new Float32Array(B * T).fill(1);
  for (let b = 0; b < B; b++) {
    let pads = 0;
    for (let t = 0; t < T; t++) if (!values[b * T + t]) pads++;
    out.fill(0, b * T, b * T + pads);
  }
  return tf.tensor2d(out, [B, T]);
}

function causal(S: number, T: number, firstColumns: boolean): tf.Tensor2D {
  const P = firstColumns ? 0 : T - S;
  const data = new Float32Array(S * T);
  for (let i = 0; i < S; i++) for (let j = P + i + 1; j < T; j++) data[i * T + j] = -Infinity;
  return tf.tensor2d(data, [S, T]);
}

export function attentionVariant(flaws: AttentionFlaws) {
  const repeat = repeatKvVariant(flaws.repeat ?? null);
  return (x: tf.Tensor3D, w: AttentionWeights, opts: AttentionOptions) =>
    tf.tidy(() => {
      const [B, S] = x.shape;
      const { numHeads: Hq, numKvHeads: Hkv } = opts;
      const D = w.wq.shape[0] / Hq;
      const eps = opts.eps ?? flaws.epsDefault ?? 1e-6;
      const heads = (m: tf.Tensor2D, n: number) => tf.reshape(linear(x, m), [B, S, n, D]) as tf.Tensor4D;
      if (flaws.nullChecksOnly && (opts.pastKv === undefined || opts.attentionMask === undefined)) {
        throw new TypeError("Cannot read properties of undefined (reading 'k')");
      }
      const norm = (t: tf.Tensor4D, g: tf.Tensor1D) => (flaws.noQkNorm ? t : (rmsNorm(t, g, eps) as tf.Tensor4D));
      let q: tf.Tensor4D;
      let kNew: tf.Tensor4D;
      if (flaws.ropeBeforeNorm) {
        const r = applyRope(heads(w.wq, Hq), heads(w.wk, Hkv), opts.cos, opts.sin);
        [q, kNew] = [norm(r.q, w.qNorm), norm(r.k, w.kNorm)];
      } else {
        const r = applyRope(norm(heads(w.wq, Hq), w.qNorm), norm(heads(w.wk, Hkv), w.kNorm), opts.cos, opts.sin);
        [q, kNew] = [r.q, r.k];
      }
      const vNew = heads(w.wv, Hkv);
      const past = opts.pastKv ?? null;
      const k = past ? (tf.concat([past.k, kNew], 1) as tf.Tensor4D) : kNew;
      const v = past ? (tf.concat([past.v, vNew], 1) as tf.Tensor4D) : vNew;
      const T = k.shape[1];
      const [kr, vr] = [repeat(k, Hq / Hkv), repeat(v, Hq / Hkv)];
      const byHead = (t: tf.Tensor4D) => tf.transpose(t, [0, 2, 1, 3]);
      let scores = tf.div(tf.matMul(byHead(q), byHead(kr), false, true), flaws.scaleByD ? D : Math.sqrt(D));
      scores = tf.add(scores, causal(S, T, flaws.causalFirstColumns ?? false));
      if (opts.attentionMask && !flaws.noPaddingMask) {
        const given = flaws.padFromLeft ? leadingPadMask(opts.attentionMask) : opts.attentionMask;
        const keep = tf.cast(tf.reshape(given, [B, 1, 1, T]), "float32");
        scores = flaws.padMinusInfinity ? tf.where(tf.greater(keep, 0), scores, tf.fill(scores.shape, -Infinity)) : tf.add(scores, tf.mul(tf.sub(1, keep), -1e9));
      }
      const mixed = tf.matMul(tf.softmax(scores, -1), byHead(vr));
      const merged = tf.reshape(flaws.mergeWithoutTranspose ? mixed : tf.transpose(mixed, [0, 2, 1, 3]), [B, S, Hq * D]);
      const presentKv = (flaws.cacheByDefault ? opts.useCache ?? true : opts.useCache) ? (flaws.cacheAfterRepeat ? { k: kr, v: vr } : { k, v }) : undefined;
      return { output: linear(merged, w.wo) as tf.Tensor3D, presentKv };
    });
}
