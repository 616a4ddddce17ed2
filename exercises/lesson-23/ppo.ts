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
 * Returns [B, R] int32 with `positions[b, j] = promptLens[b] − 1 + j`: the logits at position
 * p predict the token at p + 1, so response token j (at p = promptLen + j) is predicted by the
 * logits at promptLen − 1 + j.
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
 * Generalised advantage estimation over the response, then masked normalisation.
 *
 * `tokenRewards`, `values`, `mask`: [B, R] float32. For t = R−1 down to 0 (V_R = 0):
 *   δ_t = r_t + γ·V_{t+1} − V_t,   A_t = δ_t + γλ·A_{t+1}   (over all R positions, mask unused)
 *   returns = A + V
 *   A ← (A − μ)·(σ² + 1e-8)^(−1/2)·mask, with μ and σ² the masked mean and population variance
 *   over all B·R tokens (denominators max(Σmask, 1)).
 *
 * The reference solution reads the tensors once and runs the recursion on typed arrays: GAE is computed
 * without gradients, and a per-timestep tensor loop costs R small kernel launches (see
 * `npm run bench`). The recursion is the same either way.
 *
 * Align with: trainer/train_ppo.py:139-150
 */
export function maskedGae(tokenRewards: tf.Tensor2D, values: tf.Tensor2D, mask: tf.Tensor2D, gamma: number, lam: number): GaeResult {
  throw new NotImplementedError("lesson-23", "maskedGae");
}

/**
 * PPO's clipped surrogate policy loss (without the reference-KL term MiniMind adds beside it).
 *
 * `newLogps`, `oldLogps`, `advantages`, `mask`: [B, R]. With ρ = exp(new − old):
 *   loss = masked mean of max(−A·ρ, −A·clip(ρ, 1−ε, 1+ε))
 * The max of the two negated objectives is the pessimistic (lower) bound of the surrogate.
 * Returns a scalar.
 *
 * Align with: trainer/train_ppo.py:204-211
 */
export function ppoPolicyLoss(newLogps: tf.Tensor2D, oldLogps: tf.Tensor2D, advantages: tf.Tensor2D, mask: tf.Tensor2D, clipEpsilon: number): tf.Scalar {
  throw new NotImplementedError("lesson-23", "ppoPolicyLoss");
}

/**
 * KL penalty against the frozen reference model, in the k3 form (non-negative, low variance).
 *
 * `policyLogps`, `refLogps`, `mask`: [B, R]. With u = ref − policy:
 *   penalty = masked mean of exp(u) − u − 1
 * Returns a scalar; MiniMind adds kl_coef times it to the policy loss.
 *
 * Align with: trainer/train_ppo.py:207-208
 */
export function referenceKlPenalty(policyLogps: tf.Tensor2D, refLogps: tf.Tensor2D, mask: tf.Tensor2D): tf.Scalar {
  throw new NotImplementedError("lesson-23", "referenceKlPenalty");
}

/**
 * The critic's clipped value loss.
 *
 * `values` (new), `oldValues` (from the rollout), `returns`, `mask`: [B, R]; `cliprangeValue`: c.
 *   V_clip = clip(V, V_old − c, V_old + c)
 *   loss = 0.5 · masked mean of max((V − R)², (V_clip − R)²)
 * Returns a scalar.
 *
 * Align with: trainer/train_ppo.py:213-216
 */
export function clippedValueLoss(values: tf.Tensor2D, oldValues: tf.Tensor2D, returns: tf.Tensor2D, mask: tf.Tensor2D, cliprangeValue: number): tf.Scalar {
  throw new NotImplementedError("lesson-23", "clippedValueLoss");
}
