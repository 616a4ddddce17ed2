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
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-33`. Generated from
// solutions/ by `npm run stubs`; edit freely.

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
  throw new NotImplementedError("lesson-33", "klEstimator");
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
  throw new NotImplementedError("lesson-33", "overlongPenalty");
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
  throw new NotImplementedError("lesson-33", "arealAdvantages");
}
