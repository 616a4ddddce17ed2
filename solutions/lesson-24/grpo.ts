/**
 * Lesson 24 — GRPO and CISPO: the pieces of MiniMind's critic-free RL step.
 *
 * Shapes: N prompts, G generations per prompt, B = N·G completions stacked prompt by prompt
 * (rows i·G … i·G + G − 1 answer prompt i), R completion positions (right-padded).
 * Log-prob tensors are [B, R] float32; a completion mask is [B, R] of 0/1 (int32, as
 * `grpoCompletionMask` returns it, or float32). Read lessons/24-grpo-and-cispo.md first; every
 * function cites the MiniMind lines it mirrors at commit d65ef2c (jingyaogong/minimind).
 */
import * as tf from "../../lib/tf.js";
// Provided, not graded: PyTorch's `.detach()` (TensorFlow.js has no stop-gradient op).
import { stopGradient } from "../../lib/autograd.js";

// BEGIN SOLUTION
/** Σ_t(x·m)/max(Σ_t m, 1) per row, then the mean over rows: MiniMind's per-sequence, then batch, mean. */
function sequenceThenBatchMean(perToken: tf.Tensor2D, mask: tf.Tensor2D): tf.Scalar {
  const rowSums = tf.sum(tf.mul(perToken, mask), 1);
  const rowCounts = tf.maximum(tf.sum(mask, 1), 1);
  return tf.mean(tf.div(rowSums, rowCounts));
}
// END SOLUTION

/**
 * Group-relative advantages: each reward standardised against the other answers to the same
 * prompt (population standard deviation, `eps` added to it).
 *
 * `rewards`: [N·G] float32, G consecutive rewards per prompt; `numGenerations`: G.
 * Returns [N·G] float32. A group whose rewards are all equal (G = 1 included) gets 0, never NaN
 * (to float32 rounding: the mean of three 0.1s can miss 0.1 by an ulp, which eps turns into ~1e-4).
 *
 * Align with: trainer/train_grpo.py:121-124
 */
export function groupRelativeAdvantages(rewards: tf.Tensor1D, numGenerations: number, eps = 1e-4): tf.Tensor1D {
  // BEGIN SOLUTION
  return tf.tidy(() => {
    const grouped = tf.reshape(rewards, [-1, numGenerations]); // [N, G]: one row per prompt
    const { mean, variance } = tf.moments(grouped, 1, true); // population variance, [N, 1]
    const std = tf.sqrt(variance);
    return tf.reshape(tf.div(tf.sub(grouped, mean), tf.add(std, eps)), [-1]) as tf.Tensor1D;
  });
  // END SOLUTION
}

/**
 * Which completion tokens the loss counts: each row's real tokens up to and including its first
 * EOS (ending the answer is a decision too). An EOS id inside the padding ends nothing; a row
 * without an EOS keeps all its real tokens.
 *
 * `completionIds`: [B, R] int32; `padMask`: [B, R] 0/1 (1 = a real token), int32 or float32;
 * `eosTokenId`: the EOS id. Returns [B, R] int32 0/1.
 *
 * Align with: trainer/train_grpo.py:126-130
 */
export function grpoCompletionMask(completionIds: tf.Tensor2D, padMask: tf.Tensor2D, eosTokenId: number): tf.Tensor2D {
  // BEGIN SOLUTION
  return tf.tidy(() => {
    const [B, R] = completionIds.shape;
    const real = tf.cast(padMask, "bool");
    const isEos = tf.logicalAnd(tf.equal(completionIds, tf.scalar(eosTokenId, "int32")), real); // [B, R]
    const hasEos = tf.any(isEos, 1); // [B]
    const firstEos = tf.argMax(tf.cast(isEos, "int32"), 1); // [B]: the first maximum, so the first EOS
    const eosIndex = tf.where(hasEos, firstEos, tf.fill([B], R - 1, "int32")); // [B]
    const positions = tf.range(0, R, 1, "int32").expandDims(0); // [1, R]
    const upToEos = tf.lessEqual(positions, eosIndex.expandDims(1)); // [B, R]
    return tf.cast(tf.logicalAnd(upToEos, real), "int32") as tf.Tensor2D;
  });
  // END SOLUTION
}

/**
 * The per-token k3 estimate of KL(π_θ ‖ π_ref), on tokens sampled from π_θ: never negative, and
 * 0 only where the two log-probabilities agree.
 *
 * `policyLogps`, `refLogps`: [B, R] float32. Returns [B, R] float32, unmasked: the losses apply
 * the mask.
 *
 * Align with: trainer/train_grpo.py:132-133
 */
export function tokenKlPenalty(policyLogps: tf.Tensor2D, refLogps: tf.Tensor2D): tf.Tensor2D {
  // BEGIN SOLUTION
  return tf.tidy(() => {
    const delta = tf.sub(refLogps, policyLogps);
    return tf.sub(tf.sub(tf.exp(delta), delta), 1) as tf.Tensor2D;
  });
  // END SOLUTION
}

/**
 * GRPO's loss: PPO's clipped surrogate (clip range 1 ± ε) with one advantage per completion, plus
 * β times the per-token KL penalty, averaged over each completion's tokens, then over the batch.
 *
 * `policyLogps` (with gradient), `oldLogps` (from the rollout), `refLogps`: [B, R];
 * `advantages`: [B], one per completion; `completionMask`: [B, R] 0/1. Returns a float32 scalar,
 * differentiable in `policyLogps` through the ratio and the KL term. A row whose mask is all 0
 * adds 0 but still counts in the batch mean.
 *
 * Align with: trainer/train_grpo.py:132-134, 138-143
 */
export function grpoPolicyLoss(
  policyLogps: tf.Tensor2D,
  oldLogps: tf.Tensor2D,
  refLogps: tf.Tensor2D,
  advantages: tf.Tensor1D,
  completionMask: tf.Tensor2D,
  epsilon: number,
  beta: number,
): tf.Scalar {
  // BEGIN SOLUTION
  return tf.tidy(() => {
    const ratio = tf.exp(tf.sub(policyLogps, oldLogps));
    const adv = advantages.expandDims(1); // [B, 1]
    const unclipped = tf.mul(ratio, adv);
    const clipped = tf.mul(tf.clipByValue(ratio, 1 - epsilon, 1 + epsilon), adv);
    const kl = tokenKlPenalty(policyLogps, refLogps);
    const perToken = tf.neg(tf.sub(tf.minimum(unclipped, clipped), tf.mul(beta, kl))) as tf.Tensor2D;
    return sequenceThenBatchMean(perToken, completionMask);
  });
  // END SOLUTION
}

/**
 * CISPO's loss: a REINFORCE-style term whose importance weight is capped at `epsilonHigh` and
 * detached, plus the same KL penalty and reduction as GRPO.
 *
 * Inputs as in `grpoPolicyLoss`; `epsilonHigh`: the cap on the weight (MiniMind's default is 5).
 * Returns a float32 scalar. The gradient reaches the policy through log π_θ (and the KL term)
 * only, never through the weight: every token keeps a gradient, even where GRPO's clip zeroes it.
 *
 * Align with: trainer/train_grpo.py:132-137, 143
 */
export function cispoPolicyLoss(
  policyLogps: tf.Tensor2D,
  oldLogps: tf.Tensor2D,
  refLogps: tf.Tensor2D,
  advantages: tf.Tensor1D,
  completionMask: tf.Tensor2D,
  epsilonHigh: number,
  beta: number,
): tf.Scalar {
  // BEGIN SOLUTION
  return tf.tidy(() => {
    const ratio = tf.exp(tf.sub(policyLogps, oldLogps));
    const weight = stopGradient(tf.minimum(ratio, epsilonHigh)); // truncated above only, no gradient
    const adv = advantages.expandDims(1); // [B, 1]
    const kl = tokenKlPenalty(policyLogps, refLogps);
    const perToken = tf.neg(tf.sub(tf.mul(tf.mul(weight, adv), policyLogps), tf.mul(beta, kl))) as tf.Tensor2D;
    return sequenceThenBatchMean(perToken, completionMask);
  });
  // END SOLUTION
}
