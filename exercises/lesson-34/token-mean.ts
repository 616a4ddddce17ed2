/**
 * Lesson 34 — The token-mean across micro-batches and ranks: how AReaL weights each micro-batch's
 * loss so that one optimiser step averages over every valid token of the step, wherever the
 * tokens happen to sit.
 *
 * Inputs are plain numbers indexed [rank][microBatch]: R data-parallel ranks, each with its own
 * micro-batches. Read lessons/34-normalisation-and-batching.md first; AReaL is cited at 4aef98d8.
 */
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-34`. Generated from
// solutions/ by `npm run stubs`; edit freely.

/** What one step's loss is, and how each micro-batch's own loss is scaled to get it. */
export interface GlobalTokenMean {
  /** The step's loss: the mean of the per-token loss over every valid token of every rank. */
  loss: number;
  /** [rank][microBatch]: the factor AReaL multiplies that micro-batch's token-mean loss by. */
  scales: number[][];
}

/**
 * The loss of one optimiser step from its micro-batches. Each micro-batch m of rank r reports the
 * sum of its per-token losses and its count of valid tokens; its own loss is the mean over its
 * tokens (0 when it has none). `scales[r][m]` is AReaL's factor for that loss, and `loss` is what
 * the scaled losses add up to once the gradients are averaged over the R ranks.
 *
 * Both inputs have the same [R][M_r] shape. Throws when the shapes differ or no token is valid.
 *
 * Align with: areal/engine/core/train_engine.py:30-65; areal/engine/fsdp_engine.py:775-790, 1987-1989, 2045-2046
 */
export function globalTokenMean(microBatchLossSums: readonly (readonly number[])[], microBatchTokenCounts: readonly (readonly number[])[]): GlobalTokenMean {
  throw new NotImplementedError("lesson-34", "globalTokenMean");
}
