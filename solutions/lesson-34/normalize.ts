/**
 * Lesson 34 — Normalisation: AReaL's configurable mean/std normalisation of rewards and advantages.
 *
 * Shapes: x is [B] (one reward per sequence) or [B, T] (one advantage per token); any rank works as
 * long as the first axis is the batch. Groups are `groupSize` consecutive rows (the samples of one
 * prompt). Read lessons/34-normalisation-and-batching.md first; every function cites the AReaL
 * lines it mirrors at commit 4aef98d8 (inclusionAI/AReaL).
 */
import * as tf from "../../lib/tf.js";
import { NORM_DEFAULTS, type NormConfig } from "./config.js";

/** NormConfig's fields plus the loss mask of the call; absent fields take NORM_DEFAULTS. */
export interface NormalizeOptions extends NormConfig {
  /** 0/1, the shape of x: which elements count. Absent: all of them. */
  mask?: tf.Tensor;
}

// BEGIN SOLUTION
/** Index ranges [start, end) of the flattened x that pool one statistic at `level`. */
function poolRanges(level: "batch" | "group", batch: number, rowSize: number, groupSize: number): Array<[number, number]> {
  if (level === "batch") return [[0, batch * rowSize]];
  const span = groupSize * rowSize;
  // Rows past the last full group belong to no group: they keep mean 0 and std 0, as in AReaL.
  return Array.from({ length: Math.floor(batch / groupSize) }, (_, g): [number, number] => [g * span, (g + 1) * span]);
}

/** Writes into `mean[start, end)` the (leave-one-out) masked mean of x over that range. */
function fillMean(x: Float64Array, m: Float64Array, start: number, end: number, leaveOneOut: boolean, mean: Float64Array): void {
  let count = 0;
  let sum = 0;
  for (let i = start; i < end; i++) {
    count += m[i];
    sum += x[i] * m[i];
  }
  for (let i = start; i < end; i++) {
    if (leaveOneOut) {
      if (count <= 1) mean[i] = 0;
      else mean[i] = m[i] > 0 ? (sum - x[i] * m[i]) / Math.max(count - m[i], 1) : sum / count;
    } else {
      mean[i] = count === 0 ? 0 : sum / count;
    }
  }
}

/** Writes into `std[start, end)` the masked std of x around the per-element `mean` over that range. */
function fillStd(x: Float64Array, m: Float64Array, mean: Float64Array, start: number, end: number, unbiased: boolean, std: Float64Array): void {
  let count = 0;
  let sumSq = 0;
  for (let i = start; i < end; i++) {
    count += m[i];
    sumSq += (x[i] * m[i] - mean[i] * m[i]) ** 2;
  }
  const denominator = unbiased ? count - 1 : count;
  const value = denominator <= 0 ? 1 : Math.sqrt(sumSq / denominator);
  std.fill(value, start, end);
}
// END SOLUTION

/**
 * Normalises x as AReaL's `Normalization` does: centred by a mean and divided by a std (+ eps),
 * each pooled over the masked-in elements of the batch or of each group, per `NormalizeOptions`.
 * Computed in float64; returns float32 of x's shape, 0 where the mask is 0.
 *
 * Edge cases: a mask that keeps nothing returns x unchanged (as float32); a pool too small for
 * its mean or std falls back to mean 0 and std 1. B should be a multiple of groupSize: rows past
 * the last full group are divided by eps alone.
 *
 * Align with: areal/utils/data.py:1378-1595 (defaults: areal/api/cli_args.py:42-77)
 */
export function normalize(x: tf.Tensor, options: NormalizeOptions = {}): tf.Tensor {
  // BEGIN SOLUTION
  const { meanLevel, stdLevel, groupSize, leaveOneOut, unbiased, eps } = { ...NORM_DEFAULTS, ...options };
  const values = Float64Array.from(x.dataSync());
  const m = options.mask ? Float64Array.from(options.mask.dataSync()) : new Float64Array(values.length).fill(1);
  if (options.mask && m.every((v) => v === 0)) return tf.tensor(Float32Array.from(values), x.shape, "float32");

  const batch = x.shape[0] ?? 1;
  const rowSize = values.length / Math.max(batch, 1);

  // Step 1: the mean of every element (0 where it is not taken).
  const mean = new Float64Array(values.length);
  if (meanLevel !== "none" && !(meanLevel === "group" && groupSize === 1 && leaveOneOut)) {
    for (const [start, end] of poolRanges(meanLevel, batch, rowSize, groupSize)) fillMean(values, m, start, end, leaveOneOut, mean);
  }

  // Step 2: the std of every element, around those means (1 where it is not taken).
  const std = new Float64Array(values.length).fill(1);
  if (stdLevel !== "none" && !(stdLevel === "group" && groupSize === 1 && unbiased)) {
    std.fill(0);
    for (const [start, end] of poolRanges(stdLevel, batch, rowSize, groupSize)) fillStd(values, m, mean, start, end, unbiased, std);
  }
  const divisorEps = stdLevel === "none" ? 0 : eps;

  const out = values.map((v, i) => ((v - mean[i]) * m[i]) / (std[i] + divisorEps));
  return tf.tensor(Float32Array.from(out), x.shape, "float32");
  // END SOLUTION
}
