/**
 * Lesson 30 — Proximal approximation and staleness: skipping the proximal forward pass by
 * interpolating between the behaviour and current log-probabilities, and measuring how stale the
 * samples in a batch are.
 *
 * Shapes: B sequences, T token positions. `versions` is an int32 [B, T] tensor holding, for each
 * token, the policy version that generated it (−1 on prompt tokens). Masks are `bool` [B, T].
 * Read lessons/30-proximal-approximation-staleness.md first; every rule cites AReaL at commit
 * 4aef98d8 (inclusionAI/AReaL).
 */
import * as tf from "../../lib/tf.js";
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-30`. Generated from
// solutions/ by `npm run stubs`; edit freely.

export interface ProxApproxOptions {
  /** [B, T] log π_behave: the log-probabilities the inference engine reported. */
  oldLogp: tf.Tensor2D;
  /** [B, T] log π_θ: the current policy's log-probabilities from the training forward pass. */
  logprobs: tf.Tensor2D;
  /** [B, T] int32: the version that generated each token; −1 on prompt tokens. */
  versions: tf.Tensor2D;
  /** v_θ, the version of the weights being trained. The proximal policy is v_θ − 1. */
  currentVersion: number;
}

/** Three stand-ins for log π_prox, each [B, T] float32. */
export interface ProxApproximations {
  /** Interpolation in log space: old + α·(logprobs − old). */
  loglinear: tf.Tensor2D;
  /** Interpolation in probability space: log((1 − α)·e^old + α·e^logprobs + 1e-10). */
  linear: tf.Tensor2D;
  /** No interpolation: the behaviour log-probabilities themselves (a copy). */
  rollout: tf.Tensor2D;
}

/**
 * Approximates the proximal policy's log-probabilities from the versions alone.
 *
 * With v_b the token's version, v_prox = currentVersion − 1 and v_θ = currentVersion:
 *   α = clamp((v_prox − v_b) / (v_θ − v_b), 0, 1)  where v_θ − v_b > 0 and v_b ≥ 0, else α = 0
 *   loglinear = old + α·(logprobs − old)
 *   linear    = log((1 − α)·exp(old) + α·exp(logprobs) + 1e-10)
 *   rollout   = old
 * α = 0 leaves a token at its behaviour log-probability (prompt tokens, tokens of version v_prox
 * or newer); α → 1 as the token gets staler.
 *
 * Align with: areal/trainer/ppo/actor.py:629-684
 */
export function proxLogpApproximations(options: ProxApproxOptions): ProxApproximations {
  throw new NotImplementedError("lesson-30", "proxLogpApproximations");
}

/** avg, max and min of one staleness measure over the counted tokens. */
export interface StalenessSummary {
  avg: number;
  max: number;
  min: number;
}

export interface StalenessStats {
  /** v_prox − v_b: how many versions behind the proximal policy each token is. */
  proximal: StalenessSummary;
  /** v_θ − v_b: how many versions behind the policy being trained (always proximal + 1). */
  theta: StalenessSummary;
  /** How many tokens were counted: mask true and version ≥ 0. */
  validTokens: number;
}

/**
 * Staleness of a batch: for the tokens where `mask` is true and the version is ≥ 0,
 *   proximal staleness = (currentVersion − 1) − v_b,   theta staleness = currentVersion − v_b,
 * each summarised by its mean, max and min. Returns null when no token counts (AReaL logs
 * nothing then).
 *
 * `versions`: [B, T] int32; `mask`: [B, T] bool.
 *
 * Align with: areal/trainer/ppo/actor.py:1081-1108, 889-904
 */
export function stalenessStats(versions: tf.Tensor2D, currentVersion: number, mask: tf.Tensor2D): StalenessStats | null {
  throw new NotImplementedError("lesson-30", "stalenessStats");
}
