/**
 * Lesson 33 — AReaL's advantage pipeline: from one outcome reward per sequence to per-token
 * advantages and returns, the way areal/trainer/ppo/actor.py does it.
 *
 * Shapes: B sequences, T positions of prompt + response (right-padded). AReaL keeps two coordinate
 * systems apart: token coordinates (position t describes token t: `lossMask`, the inference
 * `logprobs`) and next-token coordinates (position t describes the prediction of token t + 1: the
 * training engine's `refLogp` and `values`). Rolling by −1 moves the first kind into the second.
 * Masks are bool tensors. Read lessons/33-areal-advantages.md first; every function cites the AReaL
 * lines it mirrors at commit 4aef98d8 (inclusionAI/AReaL).
 */
import * as tf from "../../lib/tf.js";

// BEGIN SOLUTION
/** [B, T] → [B, T] shifted left by one along the last axis, the first column wrapping to the end (torch.roll(x, -1, -1)). */
function rollLeft(x: tf.Tensor2D): tf.Tensor2D {
  const [B, T] = x.shape;
  return tf.concat([tf.slice(x, [0, 1], [B, T - 1]), tf.slice(x, [0, 0], [B, 1])], 1);
}
// END SOLUTION

/** AReaL's three per-token KL estimators (Schulman's k1, k2, k3); the lesson derives them. */
export type KlEstimatorKind = "k1" | "k2" | "k3";

/**
 * Per-token estimates of KL(p ‖ p_base) from the log-probabilities of sampled tokens, as AReaL
 * computes them: k1 (unbiased, can be negative), k2 and k3 (both ≥ 0).
 *
 * `logProbs`, `logProbsBase`: any shape, float32; returns the same shape, clamped to [−10, 10]
 * when `applyClamp` (the default). Throws for any other `kind`.
 *
 * Align with: areal/utils/data.py:1603-1656
 */
export function klEstimator(logProbs: tf.Tensor, logProbsBase: tf.Tensor, kind: KlEstimatorKind, applyClamp = true): tf.Tensor {
  // BEGIN SOLUTION
  if (kind !== "k1" && kind !== "k2" && kind !== "k3") throw new Error(`invalid KL estimator ${String(kind)}: use k1, k2 or k3`);
  return tf.tidy(() => {
    const delta = tf.sub(logProbs, logProbsBase);
    let estimate: tf.Tensor;
    if (kind === "k1") estimate = delta;
    else if (kind === "k2") estimate = tf.div(tf.square(delta), 2);
    else {
      const x = tf.neg(delta);
      estimate = tf.sub(tf.sub(tf.exp(x), 1), x);
    }
    return applyClamp ? tf.clipByValue(estimate, -10, 10) : estimate;
  });
  // END SOLUTION
}

/** The arguments of `overlongPenalty`. */
export interface OverlongPenaltyOptions {
  /** One outcome reward per sequence, [B] float32. */
  rewards: tf.Tensor1D;
  /** [B, T] bool, true on the generated tokens: its row sums are the response lengths. */
  lossMask: tf.Tensor2D;
  /** The length of the tail (just below the maximum) where the penalty ramps up; > 0. */
  overlongTokens: number;
  /** The penalty reached at exactly `maxResponseLength` tokens. */
  overlongPenaltyFactor: number;
  /** The generation limit (AReaL's max_new_tokens). */
  maxResponseLength: number;
}

/**
 * DAPO's soft overlong penalty: a linear ramp over the last `overlongTokens` tokens before the
 * limit. A response's length is its row's count of `lossMask`; responses that end before the ramp
 * keep their reward (never a bonus), and one of exactly `maxResponseLength` tokens loses
 * `overlongPenaltyFactor`.
 *
 * Returns a new [B] float32 tensor (AReaL edits its batch in place; this function must not).
 *
 * Align with: areal/utils/functional/functional.py:782-804
 */
export function overlongPenalty(options: OverlongPenaltyOptions): tf.Tensor1D {
  // BEGIN SOLUTION
  const { rewards, lossMask, overlongTokens, overlongPenaltyFactor, maxResponseLength } = options;
  return tf.tidy(() => {
    const lengths = tf.sum(tf.cast(lossMask, "float32"), 1);
    const exceed = tf.sub(lengths, maxResponseLength - overlongTokens);
    const penalty = tf.minimum(tf.mul(tf.div(tf.neg(exceed), overlongTokens), overlongPenaltyFactor), 0);
    return tf.add(rewards, penalty) as tf.Tensor1D;
  });
  // END SOLUTION
}

/** The arguments of `arealAdvantages` (AReaL's PPOActorConfig names, in camelCase). */
export interface ArealAdvantageOptions {
  /** [B, T] bool: prompt + response tokens. A row with no padding (Σ = T) ended without EOS. */
  attentionMask: tf.Tensor2D;
  /** [B, T] bool in token coordinates: true on the tokens the policy generated. */
  lossMask: tf.Tensor2D;
  /** [B, T] float32 in token coordinates: the inference engine's log-probability of token t. */
  logprobs: tf.Tensor2D;
  /** [B, T] float32 in next-token coordinates: the reference model's log-prob of token t + 1; zeros when absent. */
  refLogp?: tf.Tensor2D;
  /** [B, T] float32 in next-token coordinates: the critic's value at position t; zeros when absent. */
  values?: tf.Tensor2D;
  /** [B] float32: one outcome reward per sequence. */
  rewards: tf.Tensor1D;
  /** γ. */
  discount: number;
  /** λ. */
  gaeLambda: number;
  /** The weight of the dense KL reward. */
  klCtl: number;
  klEstimator: KlEstimatorKind;
  /** Drop the outcome reward of rows that hit the length limit (no EOS). */
  maskNoEosWithZero: boolean;
  rewardBias: number;
  rewardScaling: number;
  rewardClip: number;
}

/** The outputs of `arealAdvantages`, all [B, T] in next-token coordinates. */
export interface ArealAdvantages {
  /** GAE advantages (not normalised; AReaL normalises later when adv_norm is set). */
  advantages: tf.Tensor2D;
  /** advantages + values: the critic's targets. */
  returns: tf.Tensor2D;
  /** The loss mask rolled by −1 (bool): true at position t when token t + 1 was generated. */
  lossMask: tf.Tensor2D;
  /** −klCtl · KL(old, ref) per position, before the outcome reward is placed. */
  klRewards: tf.Tensor2D;
  /** The rewards GAE ran on: klRewards, zeroed at seqlen − 1, plus the shaped outcome reward at max(seqlen − 2, 0). */
  totRewards: tf.Tensor2D;
}

/**
 * AReaL's advantage computation for PPO: the shaped outcome reward plus a dense KL reward, then
 * AReaL's masked GAE, all in next-token coordinates. Returns `ArealAdvantages`, each [B, T].
 *
 * A row's length is Σ attentionMask (at least 1); a row that fills all T positions ended without
 * EOS: its GAE bootstraps from its last value, and with `maskNoEosWithZero` it gets no outcome
 * reward. No gradients are involved (AReaL computes it under no_grad).
 *
 * Align with: areal/trainer/ppo/actor.py:145-249
 */
export function arealAdvantages(options: ArealAdvantageOptions): ArealAdvantages {
  // BEGIN SOLUTION
  const o = options;
  const [B, T] = o.attentionMask.shape;
  const shaped = tf.tidy(() => {
    const score = tf.clipByValue(tf.mul(tf.add(o.rewards, o.rewardBias), o.rewardScaling), -o.rewardClip, o.rewardClip);
    const mask = rollLeft(tf.cast(o.lossMask, "float32"));
    const oldLogp = tf.mul(rollLeft(o.logprobs), mask);
    const refLogp = o.refLogp ? tf.mul(o.refLogp, mask) : tf.zeros([B, T]);
    const klRewards = tf.mul(klEstimator(oldLogp, refLogp, o.klEstimator), -o.klCtl) as tf.Tensor2D;
    return { score, mask: tf.cast(mask, "bool") as tf.Tensor2D, klRewards };
  });
  const score = shaped.score.dataSync();
  const mask = shaped.mask.dataSync();
  const attention = o.attentionMask.dataSync();
  const values = o.values ? o.values.dataSync() : new Float32Array(B * T);
  shaped.score.dispose();

  const totRewards = Float32Array.from(shaped.klRewards.dataSync());
  const advantages = new Float32Array(B * T);
  for (let b = 0; b < B; b++) {
    const row = b * T;
    let seqlen = 0;
    for (let t = 0; t < T; t++) seqlen += attention[row + t] ? 1 : 0;
    if (seqlen === 0) throw new Error(`row ${b} has no attended token: every sequence holds at least its prompt`);
    const noEos = seqlen === T;
    totRewards[row + seqlen - 1] = 0;
    if (!(o.maskNoEosWithZero && noEos)) totRewards[row + Math.max(seqlen - 2, 0)] += score[b];

    let nextValue = noEos ? values[row + T - 1] : 0;
    let lastAdvantage = 0;
    for (let t = T - 2; t >= 0; t--) {
      const i = row + t;
      const delta = totRewards[i] + o.discount * nextValue - values[i];
      const advantage = delta + o.discount * o.gaeLambda * lastAdvantage;
      if (mask[i]) {
        nextValue = values[i];
        lastAdvantage = advantage;
      }
      advantages[i] = lastAdvantage;
    }
  }
  const returns = advantages.map((a, i) => a + values[i]);

  return {
    advantages: tf.tensor2d(advantages, [B, T]),
    returns: tf.tensor2d(returns, [B, T]),
    lossMask: shaped.mask,
    klRewards: shaped.klRewards,
    totRewards: tf.tensor2d(totRewards, [B, T]),
  };
  // END SOLUTION
}
