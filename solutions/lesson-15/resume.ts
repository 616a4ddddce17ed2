/**
 * Lesson 15 — Checkpoint and resume: the two pieces of arithmetic a resumed run needs to pick up
 * the data where it stopped (skip the batches already trained on) and to read a step counted on
 * a different number of processes.
 *
 * Read lessons/15-checkpoint-and-resume.md first; every function cites the MiniMind lines it
 * mirrors at commit d65ef2c (jingyaogong/minimind).
 */

/**
 * The batches of one epoch when the first `skip` batches were already trained on. `order` is the
 * epoch's sample indices in training order; batches take `batchSize` consecutive indices; the last
 * one may be shorter. Returns the batches left after the `skip` full batches, in order. A short last
 * batch is kept only if all `skip` batches were skipped before it; skip = 0 returns every batch.
 * batchSize ≥ 1 and skip ≥ 0 are integers; `order` is not changed.
 *
 * Align with: trainer/trainer_utils.py:134-153
 */
export function skipBatches(order: readonly number[], batchSize: number, skip: number): number[][] {
  // BEGIN SOLUTION
  const out: number[][] = [];
  let batch: number[] = [];
  let skipped = 0;
  for (const index of order) {
    batch.push(index);
    if (batch.length === batchSize) {
      if (skipped < skip) skipped++;
      else out.push(batch);
      batch = [];
    }
  }
  if (batch.length > 0 && skipped >= skip) out.push(batch);
  return out;
  // END SOLUTION
}

/**
 * The saved `step` of a run made on `savedWorldSize` processes, re-expressed for
 * `currentWorldSize` processes: the same number of samples seen, counted in the new run's global
 * batches, rounded down to a whole step (an integer). Unchanged when the sizes are equal.
 *
 * Align with: trainer/trainer_utils.py:108-115
 */
export function rescaleResumeStep(step: number, savedWorldSize: number, currentWorldSize: number): number {
  // BEGIN SOLUTION
  if (savedWorldSize === currentWorldSize) return step;
  return Math.floor((step * savedWorldSize) / currentWorldSize);
  // END SOLUTION
}
