/**
 * Lesson 29 — Decoupled PPO: the actor loss AReaL trains with when samples come from older policies.
 *
 * Three policies meet in one loss: the behaviour policy π_behave that generated the tokens (its
 * log-probabilities come back from the inference engine), the proximal policy π_prox (the weights
 * at the start of this training step) and the current policy π_θ (the weights being optimised).
 *
 * Shapes: B sequences, T token positions. Masks are `bool` tensors of shape [B, T].
 * Read lessons/29-decoupled-ppo.md first; every rule cites AReaL at commit 4aef98d8
 * (inclusionAI/AReaL).
 */
import * as tf from "../../lib/tf.js";
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-29`. Generated from
// solutions/ by `npm run stubs`; edit freely.

/**
 * Rejection sampling on the behaviour gap, at token level with the `ratio` metric (the form the
 * old `behave_imp_weight_cap` setting took). w = π_prox / π_behave per token.
 * - `mask`: tokens with w > upper leave the loss (their loss-mask entry becomes false).
 * - `clamp`: every token stays; its weight becomes min(w, upper).
 */
export interface RejectionSampling {
  action: "mask" | "clamp";
  upper: number;
}

export interface DecoupledPpoOptions {
  /** [B, T] log π_θ(token): the only input gradients flow through. */
  logprobs: tf.Tensor2D;
  /** [B, T] log π_prox(token): the policy the trust region is centred on. */
  proximalLogprobs: tf.Tensor2D;
  /** [B, T] log π_behave(token), as the inference engine reported it. */
  oldLogprobs: tf.Tensor2D;
  /** [B, T] per-token advantages. */
  advantages: tf.Tensor2D;
  /** [B, T] bool: true on the tokens the loss trains on. */
  lossMask: tf.Tensor2D;
  /** ε: the ratio is clipped from below at 1 − ε. */
  epsClip: number;
  /** ε_high: the upper clip bound is 1 + ε_high (clip-higher, DAPO); ε when omitted. */
  epsClipHigher?: number;
  /** c > 1 enables the dual clip: the loss of a token with A < 0 is at most c·|A|. */
  cClip?: number;
  /** "token" (default): one ratio per token. "sequence" (GSPO): one geometric-mean ratio per row. */
  importanceSamplingLevel?: "token" | "sequence";
  /** When set, the behaviour weight π_prox/π_behave multiplies each token's loss. */
  rejectionSampling?: RejectionSampling;
}

export interface DecoupledPpoResult {
  /** The scalar loss to minimise. */
  loss: tf.Scalar;
  /** [B, T] bool: tokens whose clipped term won the max (−A·r < −A·r̃), on the final mask. */
  clipMask: tf.Tensor2D;
  /** [B, T] bool: tokens where the dual clip c·|A| was smaller than the PPO loss, on the final mask. */
  dualClipMask: tf.Tensor2D;
  /** [B, T] the ratio π_θ/π_prox used in the loss (sequence-level when asked), 0 off the final mask. */
  importanceWeight: tf.Tensor2D;
}

/**
 * The decoupled PPO actor loss: PPO's clipped surrogate on the ratio π_θ/π_prox, with the options
 * of `DecoupledPpoOptions` (clip-higher, dual clip, GSPO's sequence level, and the behaviour
 * weight with rejection sampling). The loss is a sum over the final mask divided by the count of
 * `lossMask` as given, before rejection sampling (at least 1); an all-false mask gives 0.
 * Returns `DecoupledPpoResult`; only `logprobs` carries a gradient. Throws when `cClip` is given
 * and not greater than 1.
 *
 * Align with: areal/utils/functional/functional.py:479-559 (the loss),
 * functional.py:128-149 (sequence level, 2-D), functional.py:229-252, 391-420 (token-level
 * rejection sampling with the ratio metric)
 */
export function decoupledPpoLoss(options: DecoupledPpoOptions): DecoupledPpoResult {
  throw new NotImplementedError("lesson-29", "decoupledPpoLoss");
}
