/**
 * Parametrised wrong versions of lesson 23's functions. Each mutant file picks one flaw, so every
 * mutant differs from the reference in exactly one plausible way.
 */
import * as tf from "../../lib/tf.js";

export interface GaeFlaws {
  /** δ_t = r_t + V_{t+1} − V_t: the discount forgotten in the bootstrap. */
  noGammaInDelta?: boolean;
  /** A_t = δ_t + γ·A_{t+1}: λ forgotten. */
  noLambda?: boolean;
  /** The recursion restarts at masked positions. */
  resetAtMask?: boolean;
  /** Mean and variance over all B·R positions, padding included. */
  statsOverPadding?: boolean;
  /** Sample variance (n − 1). */
  sampleVariance?: boolean;
  /** returns = normalised A + V. */
  returnsFromNormalised?: boolean;
  /** Padding keeps its normalised advantage. */
  noFinalMask?: boolean;
  /** Each row's kept tokens taken as its first Σ_t mask positions (as if masks had no holes). */
  maskAsPrefix?: boolean;
}

export function gaeVariant(flaws: GaeFlaws) {
  return (tokenRewards: tf.Tensor2D, values: tf.Tensor2D, mask: tf.Tensor2D, gamma: number, lam: number) => {
    const [B, R] = values.shape;
    const r = tokenRewards.dataSync();
    const v = values.dataSync();
    const m = mask.dataSync();
    const adv = new Float32Array(B * R);
    for (let b = 0; b < B; b++) {
      let next = 0;
      for (let t = R - 1; t >= 0; t--) {
        const i = b * R + t;
        if (flaws.resetAtMask && m[i] === 0) {
          next = 0;
          adv[i] = 0;
          continue;
        }
        const nextValue = t < R - 1 ? v[i + 1] : 0;
        const delta = r[i] + (flaws.noGammaInDelta ? 1 : gamma) * nextValue - v[i];
        next = delta + gamma * (flaws.noLambda ? 1 : lam) * next;
        adv[i] = next;
      }
    }
    const kept = flaws.maskAsPrefix ? prefixOfCount(m, B, R) : m;
    const w = flaws.statsOverPadding ? new Float32Array(m.length).fill(1) : kept;
    let count = 0;
    let sum = 0;
    for (let i = 0; i < w.length; i++) {
      count += w[i];
      sum += adv[i] * w[i];
    }
    const mean = sum / Math.max(count, 1);
    let sq = 0;
    for (let i = 0; i < w.length; i++) sq += (adv[i] - mean) ** 2 * w[i];
    const variance = sq / Math.max(flaws.sampleVariance ? count - 1 : count, 1);
    const scale = 1 / Math.sqrt(variance + 1e-8);
    const norm = adv.map((a, i) => (a - mean) * scale * (flaws.noFinalMask ? 1 : kept[i]));
    const returns = (flaws.returnsFromNormalised ? norm : adv).map((a, i) => a + v[i]);
    return { advantages: tf.tensor2d(norm, [B, R]), returns: tf.tensor2d(returns, [B, R]) };
  };
}

/** Per row, 1 on the first Σ_t mask[b, t] positions: the mask read as a length. */
function prefixOfCount(m: ArrayLike<number>, B: number, R: number): Float32Array {
  const out = new Float32Array(B * R);
  for (let b = 0; b < B; b++) {
    let len = 0;
    for (let t = 0; t < R; t++) len += m[b * R + t];
    for (let t = 0; t < len; t++) out[b * R + t] = 1;
  }
  return out;
}

/** Σ(x·m)/max(Σm, 1), or the flawed denominators learners write. */
export function meanOver(x: tf.Tensor, mask: tf.Tensor, denominator: "masked" | "all" | "unclamped" = "masked"): tf.Scalar {
  const total = tf.sum(tf.mul(x, mask));
  if (denominator === "all") return tf.div(total, x.size);
  if (denominator === "unclamped") return tf.div(total, tf.sum(mask));
  return tf.div(total, tf.maximum(tf.sum(mask), 1));
}

export interface PolicyFlaws {
  /** min of the negated objectives: the optimistic bound. */
  minInsteadOfMax?: boolean;
  /** ρ = exp(old − new). */
  flippedRatio?: boolean;
  /** No clipping at all: the plain importance-weighted policy gradient. */
  noClip?: boolean;
  /** The ratio clipped to [−ε, ε] around 0 in log space, i.e. exp(clip(log ρ, −ε, ε)). */
  clipLogRatio?: boolean;
  /** ρ = exp(new) / exp(old): both underflow to 0 for log-probs below about −104 (0/0 = NaN). */
  ratioOfProbs?: boolean;
  /** The loss computed on plain numbers (dataSync) and returned as a fresh scalar: no gradient. */
  noGradient?: boolean;
  denominator?: "masked" | "all" | "unclamped";
}

export function policyVariant(flaws: PolicyFlaws) {
  return (newLogps: tf.Tensor2D, oldLogps: tf.Tensor2D, advantages: tf.Tensor2D, mask: tf.Tensor2D, eps: number) =>
    tf.tidy(() => {
      const logRatio = flaws.flippedRatio ? tf.sub(oldLogps, newLogps) : tf.sub(newLogps, oldLogps);
      const ratio = flaws.ratioOfProbs ? tf.div(tf.exp(newLogps), tf.exp(oldLogps)) : tf.exp(logRatio);
      const clipped = flaws.noClip ? ratio : flaws.clipLogRatio ? tf.exp(tf.clipByValue(logRatio, -eps, eps)) : tf.clipByValue(ratio, 1 - eps, 1 + eps);
      const a = tf.mul(tf.neg(advantages), ratio);
      const b = tf.mul(tf.neg(advantages), clipped);
      const loss = meanOver(flaws.minInsteadOfMax ? tf.minimum(a, b) : tf.maximum(a, b), mask, flaws.denominator);
      return flaws.noGradient ? tf.scalar(loss.dataSync()[0]) : loss;
    });
}

export interface KlFlaws {
  /** u = policy − ref instead of ref − policy. */
  flippedDelta?: boolean;
  /** k1: the plain log-ratio log π − log π_ref. */
  k1?: boolean;
  /** exp(u) − u without the − 1. */
  noMinusOne?: boolean;
  /** e^u as exp(ref) / exp(policy): both underflow to 0 for log-probs below about −104. */
  ratioOfProbs?: boolean;
  denominator?: "masked" | "all" | "unclamped";
}

export function klVariant(flaws: KlFlaws) {
  return (policyLogps: tf.Tensor2D, refLogps: tf.Tensor2D, mask: tf.Tensor2D) =>
    tf.tidy(() => {
      const u = flaws.flippedDelta ? tf.sub(policyLogps, refLogps) : tf.sub(refLogps, policyLogps);
      const expU = flaws.ratioOfProbs ? tf.div(tf.exp(refLogps), tf.exp(policyLogps)) : tf.exp(u);
      const perToken = flaws.k1 ? tf.neg(u) : tf.sub(tf.sub(expU, u), flaws.noMinusOne ? 0 : 1);
      return meanOver(perToken, mask, flaws.denominator);
    });
}

export interface ValueFlaws {
  /** min of the two squared errors. */
  minInsteadOfMax?: boolean;
  /** The 0.5 factor dropped. */
  noHalf?: boolean;
  /** V clipped to [−c, c] instead of [V_old − c, V_old + c]. */
  clipAbsolute?: boolean;
  /** Plain squared error, no clipped term. */
  noClip?: boolean;
  /** The loss computed on plain numbers (dataSync) and returned as a fresh scalar: no gradient. */
  noGradient?: boolean;
  denominator?: "masked" | "all" | "unclamped";
}

export function valueVariant(flaws: ValueFlaws) {
  return (values: tf.Tensor2D, oldValues: tf.Tensor2D, returns: tf.Tensor2D, mask: tf.Tensor2D, c: number) =>
    tf.tidy(() => {
      const clippedValues = flaws.clipAbsolute ? tf.clipByValue(values, -c, c) : tf.minimum(tf.maximum(values, tf.sub(oldValues, c)), tf.add(oldValues, c));
      const plain = tf.square(tf.sub(values, returns));
      const clipped = flaws.noClip ? plain : tf.square(tf.sub(clippedValues, returns));
      const worst = flaws.minInsteadOfMax ? tf.minimum(plain, clipped) : tf.maximum(plain, clipped);
      const loss = tf.mul(flaws.noHalf ? 1 : 0.5, meanOver(worst, mask, flaws.denominator));
      return flaws.noGradient ? tf.scalar(loss.dataSync()[0]) : loss;
    });
}
