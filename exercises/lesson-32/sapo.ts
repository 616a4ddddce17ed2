/**
 * Lesson 32 — GSPO and SAPO: two ways AReaL changes what PPO's ratio does.
 *
 * GSPO replaces the per-token ratio by one ratio per sequence (the geometric mean of its token
 * ratios) and gives every token of a sequence the sequence's mean advantage. SAPO replaces PPO's
 * hard clip by a soft sigmoid gate whose slope at r = 1 is exactly the vanilla policy gradient.
 *
 * Shapes: B sequences, T token positions (right-padded). `lossMask` is a bool tensor [B, T]: true
 * on the tokens the loss trains on. Read lessons/32-gspo-and-sapo.md first; every function cites
 * the AReaL lines it mirrors at commit 4aef98d8 (inclusionAI/AReaL).
 */
import * as tf from "../../lib/tf.js";
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-32`. Generated from
// solutions/ by `npm run stubs`; edit freely.

/** The outputs of `sequenceLevelRatio`, both [B, T] float32 and 0 where the mask is false. */
export interface SequenceLevel {
  /** exp(mean of the row's masked log-ratios), the same value on every masked-in token of the row. */
  ratio: tf.Tensor2D;
  /** The row's mean masked advantage, on every masked-in token of the row. */
  advantages: tf.Tensor2D;
}

/**
 * GSPO's sequence-level importance ratio and advantage (the 2-D, padded layout).
 *
 * `logRatio` (log π_θ − log π_old), `advantages`: [B, T] float32; `lossMask`: [B, T] bool.
 * With n_i = max(Σ_t mask[i, t], 1):
 *   ratio[i, t]      = exp(Σ_t mask·logRatio[i, t] / n_i)   where mask[i, t], else 0
 *   advantages[i, t] = Σ_t mask·advantages[i, t] / n_i     where mask[i, t], else 0
 * The ratio is the geometric mean of the row's token ratios; gradients flow through it into
 * every masked-in log-ratio of the row (each gets ratio_i / n_i).
 *
 * Align with: areal/utils/functional/functional.py:128-149
 */
export function sequenceLevelRatio(logRatio: tf.Tensor2D, advantages: tf.Tensor2D, lossMask: tf.Tensor2D): SequenceLevel {
  throw new NotImplementedError("lesson-32", "sequenceLevelRatio");
}

/** "token": one ratio per token (PPO's); "sequence": GSPO's one ratio per sequence. */
export type ImportanceSamplingLevel = "token" | "sequence";

/** The arguments of `sapoLoss`. */
export interface SapoOptions {
  /** log π_θ of the sampled tokens, [B, T] float32: the loss is differentiated through these. */
  logprobs: tf.Tensor2D;
  /** log π_old of the same tokens (from the rollout), [B, T] float32. */
  oldLogprobs: tf.Tensor2D;
  /** Per-token advantages, [B, T] float32 (constants: no gradient flows into them). */
  advantages: tf.Tensor2D;
  /** Gate temperature where A > 0 (AReaL's default 1.0); must be > 0. */
  tauPos: number;
  /** Gate temperature where A ≤ 0 (AReaL's default 1.05); must be > 0. */
  tauNeg: number;
  /** [B, T] bool: the tokens the loss counts. */
  lossMask: tf.Tensor2D;
  /** Default "token". */
  importanceSamplingLevel?: ImportanceSamplingLevel;
}

/**
 * SAPO: the policy loss with a soft, asymmetric sigmoid gate instead of a hard clip.
 *
 * With r = exp(logprobs − oldLogprobs) per token (or GSPO's sequence-level r and mean A when
 * `importanceSamplingLevel` is "sequence"), τ = τ_pos where A > 0 and τ_neg elsewhere:
 *   g = (4/τ)·σ(τ·(r − 1)),   ℓ = −g·A
 *   loss = Σ_mask ℓ / max(count(mask), 1)
 * At r = 1 the gate's slope dg/dr is 4σ(0)(1 − σ(0)) = 1, so the gradient there equals the vanilla
 * policy gradient −A·∇log π. Throws when τ_pos ≤ 0 or τ_neg ≤ 0, or for an unknown level.
 * Returns `{ loss }`, a scalar.
 *
 * Align with: areal/utils/functional/functional.py:590-623
 */
export function sapoLoss(options: SapoOptions): { loss: tf.Scalar } {
  throw new NotImplementedError("lesson-32", "sapoLoss");
}
