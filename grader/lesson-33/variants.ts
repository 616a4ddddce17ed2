/**
 * Parametrised wrong versions of lesson 33's functions. Each mutant file picks one flaw, so every
 * mutant differs from the reference in exactly one plausible way.
 */
import * as tf from "../../lib/tf.js";

export interface KlFlaws {
  /** k3 as e^δ − 1 − δ: the sign of δ not flipped first. */
  k3Unflipped?: boolean;
  /** k2 = δ² without the 1/2. */
  k2NoHalf?: boolean;
  /** k1 = log p_base − log p. */
  k1Flipped?: boolean;
  /** Clamps even when applyClamp is false. */
  alwaysClamp?: boolean;
  /** Never clamps. */
  neverClamp?: boolean;
  /** Unknown kinds silently fall back to k1. */
  noValidation?: boolean;
  /** k3's ratio p_base/p as exp(log p_base) / exp(log p): 0/0 for log-probs below −104. */
  k3RatioAsQuotient?: boolean;
}

export function klVariant(flaws: KlFlaws) {
  return (logProbs: tf.Tensor, logProbsBase: tf.Tensor, kind: string, applyClamp = true): tf.Tensor => {
    if (!flaws.noValidation && kind !== "k1" && kind !== "k2" && kind !== "k3") throw new Error(`invalid KL estimator ${kind}`);
    return tf.tidy(() => {
      const delta = tf.sub(logProbs, logProbsBase);
      let estimate: tf.Tensor;
      if (kind === "k2") estimate = tf.div(tf.square(delta), flaws.k2NoHalf ? 1 : 2);
      else if (kind === "k3") {
        const x = flaws.k3Unflipped ? delta : tf.neg(delta);
        const ratio = flaws.k3RatioAsQuotient ? tf.div(tf.exp(logProbsBase), tf.exp(logProbs)) : tf.exp(x);
        estimate = tf.sub(tf.sub(ratio, 1), x);
      } else estimate = flaws.k1Flipped ? tf.neg(delta) : delta;
      const clamp = flaws.alwaysClamp || (applyClamp && !flaws.neverClamp);
      return clamp ? tf.clipByValue(estimate, -10, 10) : estimate;
    });
  };
}

export interface OverlongFlaws {
  /** No min(·, 0): short responses earn a bonus. */
  noCap?: boolean;
  /** The ramp starts at maxResponseLength instead of maxResponseLength − overlongTokens. */
  thresholdAtMax?: boolean;
  /** The length is the padded width T, not the row's count of loss-mask tokens. */
  lengthFromWidth?: boolean;
  /** Divides the excess by maxResponseLength instead of overlongTokens. */
  divideByMax?: boolean;
  /** The length is the position of the row's last loss-mask token + 1 (prompt and holes counted). */
  lengthFromLastPosition?: boolean;
}

interface OverlongArgs {
  rewards: tf.Tensor1D;
  lossMask: tf.Tensor2D;
  overlongTokens: number;
  overlongPenaltyFactor: number;
  maxResponseLength: number;
}

export function overlongVariant(flaws: OverlongFlaws) {
  return (o: OverlongArgs): tf.Tensor1D =>
    tf.tidy(() => {
      const [B, T] = o.lossMask.shape;
      const positions = tf.add(tf.range(0, T, 1, "float32").reshape([1, T]), 1);
      const lengths = flaws.lengthFromWidth
        ? tf.fill([B], T)
        : flaws.lengthFromLastPosition
          ? tf.max(tf.mul(tf.cast(o.lossMask, "float32"), positions), 1)
          : tf.sum(tf.cast(o.lossMask, "float32"), 1);
      const exceed = tf.sub(lengths, flaws.thresholdAtMax ? o.maxResponseLength : o.maxResponseLength - o.overlongTokens);
      const penalty = tf.mul(tf.div(tf.neg(exceed), flaws.divideByMax ? o.maxResponseLength : o.overlongTokens), o.overlongPenaltyFactor);
      return tf.add(o.rewards, flaws.noCap ? penalty : tf.minimum(penalty, 0)) as tf.Tensor1D;
    });
}

export interface AdvantageFlaws {
  /** The loss mask used as it is, not rolled by −1. */
  maskNotRolled?: boolean;
  /** The inference log-probs used as they are, not rolled by −1. */
  logprobsNotRolled?: boolean;
  /** +kl_ctl·KL: the KL reward has the wrong sign. */
  klSignFlipped?: boolean;
  /** clip(r + bias)·scale: the scale applied after the clip. */
  scaleAfterClip?: boolean;
  /** The outcome reward at seqlen − 1 (the last token's own position) instead of seqlen − 2. */
  rewardAtLastToken?: boolean;
  /** The KL reward at seqlen − 1 is not zeroed. */
  keepLastKl?: boolean;
  /** maskNoEosWithZero is ignored. */
  ignoreMaskNoEos?: boolean;
  /** Every row bootstraps from V[T − 1], EOS or not. */
  alwaysBootstrap?: boolean;
  /** No row bootstraps (V after the end is 0, as in MiniMind). */
  neverBootstrap?: boolean;
  /** The recursion ignores the mask (every position updates the running values), as in MiniMind. */
  noCarry?: boolean;
  /** Masked positions store 0 instead of the carried advantage. */
  zeroMaskedAdvantages?: boolean;
  /** klRewards returned after the outcome reward was placed (no copy taken first). */
  klRewardsAfterShaping?: boolean;
}

interface AdvantageArgs {
  attentionMask: tf.Tensor2D;
  lossMask: tf.Tensor2D;
  logprobs: tf.Tensor2D;
  refLogp?: tf.Tensor2D;
  values?: tf.Tensor2D;
  rewards: tf.Tensor1D;
  discount: number;
  gaeLambda: number;
  klCtl: number;
  klEstimator: string;
  maskNoEosWithZero: boolean;
  rewardBias: number;
  rewardScaling: number;
  rewardClip: number;
}

const kl = klVariant({});

function rollLeft(x: tf.Tensor2D): tf.Tensor2D {
  const [B, T] = x.shape;
  return tf.concat([tf.slice(x, [0, 1], [B, T - 1]), tf.slice(x, [0, 0], [B, 1])], 1);
}

export function advantageVariant(flaws: AdvantageFlaws) {
  return (o: AdvantageArgs) => {
    const [B, T] = o.attentionMask.shape;
    const shaped = tf.tidy(() => {
      const biased = tf.add(o.rewards, o.rewardBias);
      const score = flaws.scaleAfterClip
        ? tf.mul(tf.clipByValue(biased, -o.rewardClip, o.rewardClip), o.rewardScaling)
        : tf.clipByValue(tf.mul(biased, o.rewardScaling), -o.rewardClip, o.rewardClip);
      const floatMask = tf.cast(o.lossMask, "float32") as tf.Tensor2D;
      const mask = flaws.maskNotRolled ? floatMask : rollLeft(floatMask);
      const oldLogp = tf.mul(flaws.logprobsNotRolled ? o.logprobs : rollLeft(o.logprobs), mask);
      const refLogp = o.refLogp ? tf.mul(o.refLogp, mask) : tf.zeros([B, T]);
      const klRewards = tf.mul(kl(oldLogp, refLogp, o.klEstimator), flaws.klSignFlipped ? o.klCtl : -o.klCtl);
      return { score, mask: tf.cast(mask, "bool"), klRewards };
    });
    const score = shaped.score.dataSync();
    const mask = shaped.mask.dataSync();
    const attention = o.attentionMask.dataSync();
    const values = o.values ? o.values.dataSync() : new Float32Array(B * T);
    const tot = Float32Array.from(shaped.klRewards.dataSync());
    const adv = new Float32Array(B * T);
    for (let b = 0; b < B; b++) {
      const row = b * T;
      let seqlen = 0;
      for (let t = 0; t < T; t++) seqlen += attention[row + t] ? 1 : 0;
      const noEos = seqlen === T;
      if (!flaws.keepLastKl) tot[row + seqlen - 1] = 0;
      const at = flaws.rewardAtLastToken ? seqlen - 1 : Math.max(seqlen - 2, 0);
      if (!(o.maskNoEosWithZero && noEos && !flaws.ignoreMaskNoEos)) tot[row + at] += score[b];
      const bootstrap = flaws.alwaysBootstrap || (noEos && !flaws.neverBootstrap);
      let nextValue = bootstrap ? values[row + T - 1] : 0;
      let last = 0;
      for (let t = T - 2; t >= 0; t--) {
        const i = row + t;
        const a = tot[i] + o.discount * nextValue - values[i] + o.discount * o.gaeLambda * last;
        const keep = mask[i] || flaws.noCarry;
        if (keep) {
          nextValue = values[i];
          last = a;
        }
        adv[i] = flaws.zeroMaskedAdvantages && !mask[i] ? 0 : last;
      }
    }
    const klRewards = flaws.klRewardsAfterShaping ? tf.tensor2d(tot, [B, T]) : shaped.klRewards;
    if (flaws.klRewardsAfterShaping) shaped.klRewards.dispose();
    shaped.score.dispose();
    return {
      advantages: tf.tensor2d(adv, [B, T]),
      returns: tf.tensor2d(adv.map((a, i) => a + values[i]), [B, T]),
      lossMask: shaped.mask,
      klRewards,
      totRewards: tf.tensor2d(tot, [B, T]),
    };
  };
}
