/**
 * Parametrised wrong versions of m2poMask. Each mutant file turns on one flaw, so every mutant
 * differs from the reference in exactly one plausible way.
 */
import * as tf from "../../lib/tf.js";

export interface MaskFlaws {
  /** suffix mean ≤ τ instead of < τ. */
  nonStrict?: boolean;
  /** Each token judged alone: masked when its own m2 ≥ τ. */
  perToken?: boolean;
  /** Padding tokens take part in the sort and the means. */
  paddingCounted?: boolean;
  /** Padding tokens come back as kept. */
  paddingKept?: boolean;
  /** With no suffix mean below τ every token is masked. */
  fallbackMasksAll?: boolean;
  /** One token more than k is masked. */
  offByOne?: boolean;
  /** The smallest second moments are masked first. */
  smallestFirst?: boolean;
  /** A float32 0/1 mask instead of bool. */
  floatMask?: boolean;
  /** Of tokens tied on m2 the later position is masked first (sorted ascending, walked from the end). */
  tiesLaterFirst?: boolean;
  /** The mask read as row lengths: the first Σ mask positions of each row count as valid. */
  maskAsLengths?: boolean;
}

export function maskVariant(flaws: MaskFlaws) {
  return (oldLogp: tf.Tensor2D, proxLogp: tf.Tensor2D, lossMask: tf.Tensor2D, m2Threshold: number): tf.Tensor2D => {
    const o = oldLogp.dataSync();
    const p = proxLogp.dataSync();
    let valid = lossMask.dataSync() as Uint8Array;
    if (flaws.maskAsLengths) {
      const [B, T] = lossMask.shape;
      const prefix = new Uint8Array(valid.length);
      for (let b = 0; b < B; b++) {
        let len = 0;
        for (let t = 0; t < T; t++) len += valid[b * T + t] ? 1 : 0;
        prefix.fill(1, b * T, b * T + len);
      }
      valid = prefix;
    }
    const m2 = Array.from(o, (x, i) => (x - p[i]) ** 2);
    const positions = m2.map((_, i) => i).filter((i) => valid[i] || flaws.paddingCounted);
    const kept = new Uint8Array(valid.length);
    if (flaws.paddingKept) valid.forEach((v, i) => (kept[i] = v ? 0 : 1));
    const n = positions.length;
    if (n > 0) {
      const order = positions.sort((a, b) => (flaws.smallestFirst ? m2[a] - m2[b] : m2[b] - m2[a]) || (flaws.tiesLaterFirst ? b - a : a - b));
      let numToMask: number;
      if (flaws.perToken) numToMask = order.filter((i) => m2[i] >= m2Threshold).length;
      else {
        const means = new Float64Array(n);
        let sum = 0;
        for (let i = n - 1; i >= 0; i--) {
          sum += m2[order[i]];
          means[i] = sum / (n - i);
        }
        const first = means.findIndex((m) => (flaws.nonStrict ? m <= m2Threshold : m < m2Threshold));
        numToMask = first >= 0 ? first + (flaws.offByOne ? 1 : 0) : flaws.fallbackMasksAll ? n : n - 1;
      }
      for (let i = Math.min(numToMask, n); i < n; i++) kept[order[i]] = 1;
    }
    return tf.tidy(() => {
      const validMask = flaws.maskAsLengths ? tf.tensor2d(valid, lossMask.shape, "bool") : lossMask;
      const mask = tf.logicalAnd(tf.tensor2d(kept, lossMask.shape, "bool"), flaws.paddingKept ? tf.onesLike(lossMask) : validMask);
      return (flaws.floatMask ? tf.cast(mask, "float32") : mask) as tf.Tensor2D;
    });
  };
}
