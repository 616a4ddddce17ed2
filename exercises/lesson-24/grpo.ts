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
 * Group-relative advantages: each reward measured against the other answers to the same prompt.
 *
 * `rewards`: [N·G] float32, G consecutive rewards per prompt; `numGenerations`: G.
 * For every group g of G rewards, with its mean μ_g and population standard deviation σ_g
 * (divide by G, not G − 1):
 *   A_i = (r_i − μ_g) / (σ_g + eps)
 * Returns [N·G] float32. A group whose rewards are all equal gets advantages of exactly 0.
 *
 * Align with: trainer/train_grpo.py:121-124
 */
export function groupRelativeAdvantages(rewards: tf.Tensor1D, numGenerations: number, eps = 1e-4): tf.Tensor1D {
  throw new NotImplementedError("lesson-24", "groupRelativeAdvantages");
}

/**
 * Which completion tokens the loss counts: everything up to and including the first EOS.
 *
 * `completionIds`: [B, R] int32; `padMask`: [B, R] 0/1 (1 = a real token), int32 or float32;
 * `eosTokenId`: the EOS id. Only real tokens can be the EOS:
 *   eosIndex_b = the first j with ids[b, j] = EOS and padMask[b, j] = 1, or R − 1 if there is none
 *   mask[b, j] = 1 if j ≤ eosIndex_b and padMask[b, j] = 1, else 0
 * Returns [B, R] int32 0/1. The EOS token itself is counted: ending the answer is a decision too.
 *
 * Align with: trainer/train_grpo.py:126-130
 */
export function grpoCompletionMask(completionIds: tf.Tensor2D, padMask: tf.Tensor2D, eosTokenId: number): tf.Tensor2D {
  throw new NotImplementedError("lesson-24", "grpoCompletionMask");
}

/**
 * The per-token k3 estimate of KL(π_θ ‖ π_ref), on tokens sampled from π_θ.
 *
 * `policyLogps`, `refLogps`: [B, R] float32. With δ = ref − policy:
 *   kl = exp(δ) − δ − 1   (≥ 0, and 0 only where the two agree)
 * Returns [B, R] float32, unmasked: the losses apply the mask.
 *
 * Align with: trainer/train_grpo.py:132-133
 */
export function tokenKlPenalty(policyLogps: tf.Tensor2D, refLogps: tf.Tensor2D): tf.Tensor2D {
  throw new NotImplementedError("lesson-24", "tokenKlPenalty");
}

/**
 * GRPO's loss: PPO's clipped surrogate with a group-relative advantage per sequence, plus the
 * per-token KL penalty, averaged per sequence and then over the batch.
 *
 * `policyLogps` (with gradient), `oldLogps` (from the rollout), `refLogps`: [B, R];
 * `advantages`: [B], one per completion; `completionMask`: [B, R] 0/1; ε: `epsilon`; β: `beta`.
 * With ρ = exp(policy − old) and A broadcast along each row:
 *   ℓ_t = −( min(ρ·A, clip(ρ, 1 − ε, 1 + ε)·A) − β·kl_t )
 *   loss = mean_b [ Σ_t ℓ_t·m_t / max(Σ_t m_t, 1) ]
 * Returns a scalar. The gradient flows through ρ (and through kl).
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
 * CISPO's loss: a REINFORCE-style term whose importance weight is truncated from above and
 * detached, plus the same KL penalty and reduction as GRPO.
 *
 * Inputs as in `grpoPolicyLoss`; `epsilonHigh`: the cap on the weight (MiniMind's default is 5).
 * With ρ = exp(policy − old):
 *   w_t = stopGradient(min(ρ_t, ε_high))
 *   ℓ_t = −( w_t·A·log π_θ(y_t) − β·kl_t )
 *   loss = mean_b [ Σ_t ℓ_t·m_t / max(Σ_t m_t, 1) ]
 * Returns a scalar. The gradient reaches the policy through log π_θ (and kl) only, never through
 * w: every token keeps a gradient w·A, even where GRPO's clip would have zeroed it.
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
