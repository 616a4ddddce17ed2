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
 * AReaL's rejection sampling on the 2-D padded layout.
 *
 * `proximalLogprobs`, `oldLogprobs` (behaviour policy), `lossMask`: [B, T]. With
 * δ = log π_prox − log π_behave (non-finite δ set to 0) and w = e^δ:
 * - metric: "ratio" → e^δ; "kl_k1"/"kl_k2"/"kl_k3" → δ, δ²/2, e^(−δ) − 1 + δ (unclamped).
 * - level "token": "mask" keeps valid tokens with lower ≤ metric ≤ upper; "clamp" clips every w
 *   to [lower ?? 0, upper].
 * - level "sequence": the row's valid tokens are pooled by `agg` (sum, mean over max(n, 1), or max;
 *   an all-masked row counts as 0). For "ratio" the pooling is in log space (on δ, then exp) and w
 *   becomes the row's geometric mean exp(Σδ/n) on every token. "mask" drops whole rows out of
 *   bounds; "clamp" clips w only in those rows.
 * - filteredFraction = (valid tokens rejected, or whose w changed by clamping) / max(valid, 1).
 * - behaveImpWeight = w where the returned mask is 1, else 0.
 * "clamp" is meant for the "ratio" metric only (AReaL's config rejects the others).
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
