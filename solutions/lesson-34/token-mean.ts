/**
 * Lesson 34 — The token-mean across micro-batches and ranks: how AReaL weights each micro-batch's
 * loss so that one optimiser step averages over every valid token of the step, wherever the
 * tokens happen to sit.
 *
 * Inputs are plain numbers indexed [rank][microBatch]: R data-parallel ranks, each with its own
 * micro-batches. Read lessons/34-normalisation-and-batching.md first; AReaL is cited at 4aef98d8.
 */

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
  // BEGIN SOLUTION
  const R = microBatchTokenCounts.length;
  if (microBatchLossSums.length !== R || microBatchLossSums.some((row, r) => row.length !== microBatchTokenCounts[r].length)) {
    throw new Error("microBatchLossSums and microBatchTokenCounts must have the same [rank][microBatch] shape");
  }
  // compute_total_loss_weight: Σ of loss_weight_fn over this rank's micro-batches, all-reduced (a sum over ranks).
  const total = microBatchTokenCounts.reduce((s, row) => s + row.reduce((a, n) => a + n, 0), 0);
  if (!(total > 0)) throw new Error("Global total loss weight must be positive after all_reduce");
  // loss_scale = local_weight / total_loss_weight · dp_size; a micro-batch with no valid token contributes 0.
  const scales = microBatchTokenCounts.map((row) => row.map((n) => (n / total) * R));
  let loss = 0;
  microBatchTokenCounts.forEach((row, r) =>
    row.forEach((n, m) => {
      if (n === 0) return;
      const microBatchMean = microBatchLossSums[r][m] / n; // the loss function's own token-mean
      loss += (microBatchMean * scales[r][m]) / R; // data-parallel gradients are averaged over R ranks
    }),
  );
  return { loss, scales };
  // END SOLUTION
}
