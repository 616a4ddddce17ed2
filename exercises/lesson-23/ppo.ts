/**
 * Lesson 23 — PPO, end to end: the five computations MiniMind's PPO step is made of.
 *
 * Shapes: B sequences in the batch, R response positions (the generated tokens, right-padded).
 * Masks are float32 tensors of 0/1 with the shape of the values they mask.
 * Read lessons/23-ppo-training-flow.md first; every function cites the MiniMind lines it mirrors
 * at commit d65ef2c (jingyaogong/minimind).
 */
import * as tf from "../../lib/tf.js";
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-23`. Generated from
// solutions/ by `npm run stubs`; edit freely.

/**
 * Where in the logits each response token's log-probability lives.
 *
 * `promptLens`: [B] int32, the (padded) prompt length of each row; `responseLen`: R.
 * Returns [B, R] int32: `positions[b, j]` is the sequence position whose logits predicted response
 * token j of row b (the response starts right after the prompt).
 *
 * Align with: trainer/train_ppo.py:119-121
 */
export function responseLogpPositions(promptLens: tf.Tensor1D, responseLen: number): tf.Tensor2D {
  throw new NotImplementedError("lesson-23", "responseLogpPositions");
}

/** The outputs of `maskedGae`, both [B, R] float32. */
export interface GaeResult {
  /** GAE advantages, normalised over the masked tokens and zero where the mask is 0. */
  advantages: tf.Tensor2D;
  /** A + V before normalisation: the critic's regression targets. */
  returns: tf.Tensor2D;
}

/**
 * Generalised advantage estimation (γ, λ) over the response, then normalisation over the batch's
 * masked tokens, as MiniMind does it.
 *
 * `tokenRewards`, `values`, `mask`: [B, R] float32. Returns `GaeResult`, both [B, R] float32, no
 * gradients needed. As in MiniMind, the recursion runs over all R positions (nothing follows
 * position R − 1) and the mask enters only the normalisation. An all-masked batch gives
 * advantages of 0, never NaN; T = R = 1 works.
 *
 * Align with: trainer/train_ppo.py:139-150
 */
export function maskedGae(tokenRewards: tf.Tensor2D, values: tf.Tensor2D, mask: tf.Tensor2D, gamma: number, lam: number): GaeResult {
  throw new NotImplementedError("lesson-23", "maskedGae");
}

/**
 * PPO's clipped surrogate policy loss (without the reference-KL term MiniMind adds beside it), as
 * a loss to minimise: per token the pessimistic of the clipped and unclipped objectives (clip
 * range 1 ± ε), averaged over the tokens the mask keeps.
 *
 * `newLogps`, `oldLogps`, `advantages`, `mask`: [B, R] float32. Returns a float32 scalar,
 * differentiable in `newLogps`; 0 when the mask keeps nothing.
 *
 * Align with: trainer/train_ppo.py:204-211
 */
export function ppoPolicyLoss(newLogps: tf.Tensor2D, oldLogps: tf.Tensor2D, advantages: tf.Tensor2D, mask: tf.Tensor2D, clipEpsilon: number): tf.Scalar {
  throw new NotImplementedError("lesson-23", "ppoPolicyLoss");
}

/**
 * KL penalty against the frozen reference model: the k3 estimate of KL(π_θ ‖ π_ref) per token
 * (never negative, 0 where the two agree), averaged over the tokens the mask keeps.
 *
 * `policyLogps`, `refLogps`, `mask`: [B, R] float32. Returns a float32 scalar ≥ 0; 0 when the mask
 * keeps nothing. MiniMind adds kl_coef times it to the policy loss.
 *
 * Align with: trainer/train_ppo.py:207-208
 */
export function referenceKlPenalty(policyLogps: tf.Tensor2D, refLogps: tf.Tensor2D, mask: tf.Tensor2D): tf.Scalar {
  throw new NotImplementedError("lesson-23", "referenceKlPenalty");
}

/**
 * The critic's clipped value loss: half the squared error to the returns, where the new values are
 * also clipped to within c of the rollout's and the worse of the two errors counts per token;
 * averaged over the tokens the mask keeps.
 *
 * `values` (new), `oldValues` (from the rollout), `returns`, `mask`: [B, R] float32;
 * `cliprangeValue`: c. Returns a float32 scalar, differentiable in `values`; 0 when all masked.
 *
 * Align with: trainer/train_ppo.py:213-216
 */
export function clippedValueLoss(values: tf.Tensor2D, oldValues: tf.Tensor2D, returns: tf.Tensor2D, mask: tf.Tensor2D, cliprangeValue: number): tf.Scalar {
  throw new NotImplementedError("lesson-23", "clippedValueLoss");
}
