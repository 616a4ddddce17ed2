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
  throw new NotImplementedError("lesson-34", "normalize");
}
