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
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-24`. Generated from
// solutions/ by `npm run stubs`; edit freely.

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
  throw new NotImplementedError("lesson-24", "groupRelativeAdvantages");
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
  throw new NotImplementedError("lesson-24", "grpoCompletionMask");
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
  throw new NotImplementedError("lesson-24", "tokenKlPenalty");
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
  throw new NotImplementedError("lesson-24", "grpoPolicyLoss");
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
  throw new NotImplementedError("lesson-24", "cispoPolicyLoss");
}
