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
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-34`. Generated from
// solutions/ by `npm run stubs`; edit freely.

/** NormConfig's fields plus the loss mask of the call; absent fields take NORM_DEFAULTS. */
export interface NormalizeOptions extends NormConfig {
  /** 0/1, the shape of x: which elements count. Absent: all of them. */
  mask?: tf.Tensor;
}

/**
 * Normalises x as AReaL's `Normalization` does, in float64, returning float32 of x's shape.
 *
 * With m the mask (all ones when absent), for each pool P (the batch, or one group of rows):
 *   mean_i = Σ_P x·m / Σ_P m, or with leave-one-out (Σ_P x·m − x_i·m_i) / max(Σ_P m − m_i, 1)
 *            where m_i > 0 (the plain mean where m_i = 0), and 0 when Σ_P m ≤ 1
 *   std    = sqrt(Σ_P (x·m − mean·m)² / (Σ_P m − 1)) when unbiased (1 when Σ_P m ≤ 1),
 *            sqrt(Σ_P (x·m − mean·m)² / Σ_P m) otherwise (1 when Σ_P m = 0)
 *   out_i  = (x_i − mean_i)·m_i / (std_i + eps)
 * The std is taken around the per-element mean, leave-one-out means included. Level "none" uses
 * mean 0, or std 1 with eps 0. With groupSize 1, a group mean with leave-one-out is 0 and an
 * unbiased group std is 1. When the mask keeps nothing, x is returned unchanged (as float32).
 * B should be a multiple of groupSize: rows past the last full group are divided by eps alone.
 *
 * Align with: areal/utils/data.py:1378-1595 (defaults: areal/api/cli_args.py:42-77)
 */
export function normalize(x: tf.Tensor, options: NormalizeOptions = {}): tf.Tensor {
  throw new NotImplementedError("lesson-34", "normalize");
}
