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
  /** Interpolation in log space, from old (α = 0) to logprobs (α = 1). */
  loglinear: tf.Tensor2D;
  /** Interpolation in probability space, then the log (with AReaL's 1e-10 inside it). */
  linear: tf.Tensor2D;
  /** No interpolation: the behaviour log-probabilities themselves (a copy). */
  rollout: tf.Tensor2D;
}

/**
 * Approximates the proximal policy's log-probabilities (version v_θ − 1) from the versions alone:
 * each token is interpolated between its behaviour log-probability (its version v_b) and its
 * current one (v_θ), by the fraction α ∈ [0, 1] of the way from v_b to v_θ at which v_θ − 1 sits.
 *
 * Returns `ProxApproximations`, each [B, T] float32, never NaN. α = 0 (the behaviour
 * log-probability) for prompt tokens (v_b = −1) and tokens of version v_θ − 1 or newer.
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
 * Staleness of a batch (see `StalenessStats`), over the tokens where `mask` is true and the
 * version is ≥ 0. Returns null when no token counts (AReaL logs nothing then).
 *
 * `versions`: [B, T] int32; `mask`: [B, T] bool. The result holds plain numbers.
 *
 * Align with: areal/trainer/ppo/actor.py:1081-1108, 889-904
 */
export function stalenessStats(versions: tf.Tensor2D, currentVersion: number, mask: tf.Tensor2D): StalenessStats | null {
  throw new NotImplementedError("lesson-30", "stalenessStats");
}
