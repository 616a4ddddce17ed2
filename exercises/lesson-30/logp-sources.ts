/**
 * Lesson 30 — Which log-probability is which: the behaviour policy (the inference engine's
 * log-probs, or a recomputed copy), the proximal policy (recomputed, approximated, or the
 * behaviour one itself), and how far the trainer's log-probs drift from the engine's.
 *
 * Shapes: B sequences, T token positions, every log-prob tensor [B, T] float32 and already aligned
 * the way lesson 33's `arealAdvantages` leaves them (rolled by −1, masked). Read
 * lessons/30-proximal-approximation-staleness.md first; AReaL is cited at commit 4aef98d8.
 */
import * as tf from "../../lib/tf.js";
import { proxLogpApproximations } from "./prox-approx.js";
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-30`. Generated from
// solutions/ by `npm run stubs`; edit freely.

/** The three per-token KL estimators AReaL logs, each averaged over the valid tokens. */
export interface MismatchKl {
  /** −log r: the plain (k1) estimator. */
  direct: number;
  /** (log r)² / 2: the second-order (k2) estimator. */
  taylor: number;
  /** r − 1 − log r: the non-negative (k3-style) estimator. */
  dual: number;
}

/**
 * How far the training forward pass's log-probs (`logprobs`) are from the inference engine's
 * (`oldLogp`, π_behave) on the tokens where `mask` is true, with r = π_train / π_behave per token:
 * AReaL's three KL estimators, each a masked mean (see `MismatchKl`).
 *
 * `logprobs`, `oldLogp`: [B, T] float32; `mask`: [B, T] bool. Returns plain numbers, or null when
 * the mask holds no token (AReaL logs nothing then). Identical inputs give 0, 0, 0.
 *
 * Align with: areal/trainer/ppo/actor.py:1045-1062 (averaged as areal/utils/stats_tracker.py:244-261)
 */
export function mismatchKl(logprobs: tf.Tensor2D, oldLogp: tf.Tensor2D, mask: tf.Tensor2D): MismatchKl | null {
  throw new NotImplementedError("lesson-30", "mismatchKl");
}

/** The actor settings that decide where each log-prob comes from (AReaL's PPOActorConfig). */
export interface LogpConfig {
  /** use_decoupled_loss: a separate proximal policy (lesson 29). */
  useDecoupledLoss: boolean;
  /** recompute_logprob: replace the engine's log-probs by a training forward pass (coupled PPO). */
  recomputeLogprob: boolean;
  /** prox_logp_method: "recompute" | "loglinear" | "metrics" (anything else is an error). */
  proxLogpMethod: string;
}

/** What the batch holds when the loss runs. */
export interface LogpBatch {
  /** The inference engine's log-probs (π_behave as sampled). */
  inferenceLogp: tf.Tensor2D;
  /** The recomputed log-probs of the forward pass before training (`prox_logp`), or null if none ran. */
  recomputedLogp: tf.Tensor2D | null;
  /** The current training forward pass's log-probs (π_θ, detached). */
  logprobs: tf.Tensor2D;
  /** [B, T] int32 token versions (−1 on prompts), or null if the rollout did not record them. */
  versions: tf.Tensor2D | null;
  /** v_θ, or null. */
  currentVersion: number | null;
}

export interface ResolvedLogps {
  /** Whether the trainer must run the extra forward pass before training (compute_logp). */
  needsForwardPass: boolean;
  /** The log-probs the loss calls old/behaviour (`old_logp`). */
  behave: tf.Tensor2D;
  /** The log-probs the ratio is taken against (`prox_logp`). */
  proximal: tf.Tensor2D;
}

const PROX_LOGP_METHODS = ["recompute", "loglinear", "metrics"];

/**
 * Resolves, for one batch, which log-probs the PPO loss uses as behaviour and as proximal policy,
 * and whether the configuration asks for a forward pass, across AReaL's modes: coupled PPO with the
 * engine's or recomputed log-probs, and decoupled PPO with a recomputed or loglinear proximal policy.
 *
 * Returns new tensors (never the inputs themselves). Throws AReaL's errors, with its messages, for
 * an unknown method, a missing recomputation, a loglinear approximation without versions or
 * current version, and a proximal policy holding NaN or ±Inf.
 *
 * Align with: areal/api/cli_args.py:1534-1545; areal/trainer/ppo/actor.py:178-191, 716-766
 */
export function resolveLogps(config: LogpConfig, batch: LogpBatch): ResolvedLogps {
  throw new NotImplementedError("lesson-30", "resolveLogps");
}
