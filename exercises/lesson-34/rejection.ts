/**
 * Lesson 34 — Rejection sampling: filter or clamp the tokens whose behaviour policy (the inference
 * engine that sampled them) drifted too far from the proximal policy the loss is anchored to.
 *
 * Shapes: B sequences, T token positions (2-D padded layout). Masks are float32 0/1 [B, T].
 * Read lessons/34-normalisation-and-batching.md first; every function cites the AReaL lines it
 * mirrors at commit 4aef98d8 (inclusionAI/AReaL).
 */
import * as tf from "../../lib/tf.js";
import { REJECTION_DEFAULTS, type RejectionSamplingConfig } from "./config.js";
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-34`. Generated from
// solutions/ by `npm run stubs`; edit freely.

/** What `rejectionSampling` returns. */
export interface RejectionSamplingResult {
  /** [B, T] float32: the loss mask after rejection (unchanged by "clamp"). */
  lossMask: tf.Tensor2D;
  /** [B, T] float32: π_prox/π_behave per token (clamped, or the sequence's geometric mean), 0 where masked. */
  behaveImpWeight: tf.Tensor2D;
  /** Rejected (or clamped) tokens / valid tokens, for logging. */
  filteredFraction: number;
}

/**
 * AReaL's rejection sampling (padded layout): judges each token (or row, at "sequence" level)
 * by `config.metric` of log π_prox − log π_behave, then drops what is out of bounds from the loss
 * mask or clamps its weight π_prox/π_behave (see `RejectionSamplingConfig`).
 *
 * `proximalLogprobs`, `oldLogprobs` (behaviour policy), `lossMask`: [B, T] float32. Returns
 * `RejectionSamplingResult`; filteredFraction is 0 when no token is valid. A non-finite log-ratio
 * is 0 in the ratio metric and the weight; KL metrics use it raw (+Inf: out of bounds).
 * "clamp" is meant for the "ratio" metric only (AReaL's config refuses the others).
 *
 * Align with: areal/utils/functional/functional.py:185-426 (KL estimators: areal/utils/data.py:1620-1656)
 */
export function rejectionSampling(
  proximalLogprobs: tf.Tensor2D,
  oldLogprobs: tf.Tensor2D,
  lossMask: tf.Tensor2D,
  config: RejectionSamplingConfig = {},
): RejectionSamplingResult {
  throw new NotImplementedError("lesson-34", "rejectionSampling");
}
