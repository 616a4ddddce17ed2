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

/** What `rejectionSampling` returns. */
export interface RejectionSamplingResult {
  /** [B, T] float32: the loss mask after rejection (unchanged by "clamp"). */
  lossMask: tf.Tensor2D;
  /** [B, T] float32: π_prox/π_behave per token (clamped, or the sequence's geometric mean), 0 where masked. */
  behaveImpWeight: tf.Tensor2D;
  /** Rejected (or clamped) tokens / valid tokens, for logging. */
  filteredFraction: number;
}

// BEGIN SOLUTION
/** Per-token KL estimates of δ = log π_prox − log π_behave, unclamped: k1 = δ, k2 = δ²/2, k3 = e^(−δ) − 1 + δ. */
function klEstimate(delta: tf.Tensor, metric: "kl_k1" | "kl_k2" | "kl_k3"): tf.Tensor {
  if (metric === "kl_k1") return delta;
  if (metric === "kl_k2") return tf.div(tf.square(delta), 2);
  return tf.add(tf.sub(tf.exp(tf.neg(delta)), 1), delta);
}

/** True where lower ≤ metric ≤ upper (no lower bound when it is absent). */
function withinBounds(metric: tf.Tensor, upper: number, lower: number | undefined): tf.Tensor {
  const belowUpper = tf.lessEqual(metric, upper);
  return lower === undefined ? belowUpper : tf.logicalAnd(tf.greaterEqual(metric, lower), belowUpper);
}
// END SOLUTION

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
  // BEGIN SOLUTION
  const { level, action, metric, agg, upper, lower } = { ...REJECTION_DEFAULTS, ...config };
  return tf.tidy(() => {
    const zeros = tf.zerosLike(lossMask);
    const valid = tf.notEqual(lossMask, 0);
    const rawDelta = tf.sub(proximalLogprobs, oldLogprobs);
    const delta = tf.where(tf.isFinite(rawDelta), rawDelta, zeros);
    const tokenMetric = metric === "ratio" ? tf.exp(delta) : klEstimate(rawDelta, metric);
    const rawWeight = tf.exp(delta);
    const clampWeight = (w: tf.Tensor) => tf.clipByValue(w, lower ?? 0, upper);

    let unclampedWeight: tf.Tensor = rawWeight;
    let weight: tf.Tensor = rawWeight;
    let inBounds: tf.Tensor | undefined;
    if (level === "sequence") {
      const inLogSpace = metric === "ratio";
      const pooled = tf.where(valid, inLogSpace ? delta : tokenMetric, zeros);
      const rawCount = tf.sum(lossMask, -1, true);
      const count = tf.maximum(rawCount, 1);
      if (inLogSpace) {
        unclampedWeight = tf.broadcastTo(tf.exp(tf.div(tf.sum(pooled, -1, true), count)), lossMask.shape);
        weight = unclampedWeight;
      }
      let rowValue: tf.Tensor;
      if (agg === "sum") rowValue = tf.sum(pooled, -1, true);
      else if (agg === "mean") rowValue = tf.div(tf.sum(pooled, -1, true), count);
      else {
        const rowMax = tf.max(tf.where(valid, inLogSpace ? delta : tokenMetric, tf.fill(lossMask.shape, -Infinity)), -1, true);
        rowValue = tf.where(tf.equal(rawCount, 0), tf.zerosLike(rowMax), rowMax);
      }
      const rowInBounds = tf.broadcastTo(withinBounds(inLogSpace ? tf.exp(rowValue) : rowValue, upper, lower), lossMask.shape);
      if (action === "mask") inBounds = rowInBounds;
      else weight = tf.where(rowInBounds, weight, clampWeight(weight));
    } else if (action === "mask") {
      inBounds = withinBounds(tokenMetric, upper, lower);
    } else {
      weight = clampWeight(weight);
    }

    const validCount = tf.sum(tf.cast(valid, "float32")).dataSync()[0];
    let keep: tf.Tensor;
    let filtered: number;
    if (inBounds) {
      keep = tf.logicalAnd(valid, inBounds);
      filtered = tf.sum(tf.cast(tf.logicalAnd(valid, tf.logicalNot(inBounds)), "float32")).dataSync()[0];
    } else {
      keep = valid;
      filtered = tf.sum(tf.cast(tf.logicalAnd(valid, tf.notEqual(unclampedWeight, weight)), "float32")).dataSync()[0];
    }
    const newMask = inBounds ? tf.cast(keep, "float32") : tf.clone(lossMask);
    return {
      lossMask: newMask as tf.Tensor2D,
      behaveImpWeight: tf.where(keep, weight, zeros) as tf.Tensor2D,
      filteredFraction: filtered / Math.max(validCount, 1),
    };
  });
  // END SOLUTION
}
