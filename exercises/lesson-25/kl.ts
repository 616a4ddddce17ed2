/**
 * Lesson 25 — the two diagnostics PPO computes from the ratio ρ = π_new / π_old on each
 * minibatch: the approximate KL that decides early stopping, and the fraction of clipped tokens.
 *
 * Shapes: [B, R] per-token tensors; masks are float32 0/1. Both return scalars.
 * Read lessons/25-reward-logprob-kl.md first; MiniMind is cited at commit d65ef2c.
 */
import * as tf from "../../lib/tf.js";
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-25`. Generated from
// solutions/ by `npm run stubs`; edit freely.

/**
 * How far the policy has moved from the rollout policy, for early stopping: the second-order
 * estimate of KL(π_old ‖ π_new) on the sampled tokens, averaged over the tokens the mask keeps.
 *
 * `logRatio` = log π_new − log π_old and `mask`: [B, R] float32. Returns a float32 scalar ≥ 0; 0
 * when the mask keeps nothing. MiniMind stops the PPO epochs of a batch once it exceeds
 * `early_stop_kl` (0.25).
 *
 * Align with: trainer/train_ppo.py:194-202
 */
export function approxKl(logRatio: tf.Tensor2D, mask: tf.Tensor2D): tf.Scalar {
  throw new NotImplementedError("lesson-25", "approxKl");
}

/**
 * The share of kept tokens whose ratio left the clip window [1 − ε, 1 + ε], on either side. As in
 * MiniMind's float32 tensors, a ratio is outside when its distance |ρ − 1|, in float32, exceeds ε:
 * a distance equal to ε is inside, but a ratio stored as 1.2 (1.20000005) is outside ε = 0.2.
 *
 * `ratio` = exp(log π_new − log π_old) and `mask`: [B, R] float32; `eps`: the clip ε. Returns a
 * float32 scalar in [0, 1]; 0 when the mask keeps nothing.
 *
 * Align with: trainer/train_ppo.py:204-206
 */
export function clipFraction(ratio: tf.Tensor2D, mask: tf.Tensor2D, eps: number): tf.Scalar {
  throw new NotImplementedError("lesson-25", "clipFraction");
}
