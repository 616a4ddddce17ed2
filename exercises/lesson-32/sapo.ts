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
  /** The row's geometric-mean token ratio, the same value on every masked-in token of the row. */
  ratio: tf.Tensor2D;
  /** The row's mean masked advantage, on every masked-in token of the row. */
  advantages: tf.Tensor2D;
}

/**
 * GSPO's sequence-level importance ratio and advantage (the 2-D, padded layout), over each row's
 * masked-in tokens.
 *
 * `logRatio` (log π_θ − log π_old), `advantages`: [B, T] float32; `lossMask`: [B, T] bool.
 * Returns `SequenceLevel`; a row with no masked-in token is all 0. Gradients flow through the
 * ratio into every masked-in log-ratio of its row.
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
 * SAPO: the policy loss with a soft, asymmetric sigmoid gate on the ratio (temperature τ_pos where
 * A > 0, τ_neg elsewhere) instead of a hard clip, scaled so that at r = 1 its gradient is the
 * vanilla policy gradient −A·∇log π. At the "sequence" level it uses GSPO's ratio and advantage.
 *
 * Returns `{ loss }`, a float32 scalar averaged over the masked tokens (0 when there are none),
 * differentiable in `logprobs`. Throws when τ_pos ≤ 0 or τ_neg ≤ 0, or for an unknown level.
 *
 * Align with: areal/utils/functional/functional.py:590-623
 */
export function sapoLoss(options: SapoOptions): { loss: tf.Scalar } {
  throw new NotImplementedError("lesson-32", "sapoLoss");
}
