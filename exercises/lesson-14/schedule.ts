/**
 * Lesson 14 — Learning rate, accumulation and precision: the step-by-step decisions of MiniMind's
 * training loop (which learning rate, when the optimiser steps, what happens to a half-filled
 * accumulation at the end of an epoch).
 *
 * Steps are counted as MiniMind counts them: from 1, within an epoch (trainer/train_pretrain.py:27).
 * Read lessons/14-lr-accumulation-precision.md first; every function cites the MiniMind lines it
 * mirrors at commit d65ef2c (jingyaogong/minimind).
 */
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-14`. Generated from
// solutions/ by `npm run stubs`; edit freely.

/**
 * MiniMind's learning rate at `step` of `total`: the peak `lr` at step 0, falling along a half
 * cosine to a floor of lr/10 at step = total. A plain number; `total` > 0; steps past `total` are
 * not clamped (the curve comes back up, as MiniMind's formula does).
 *
 * Align with: trainer/trainer_utils.py:40-41
 */
export function cosineLr(step: number, total: number, lr: number): number {
  throw new NotImplementedError("lesson-14", "cosineLr");
}

/**
 * Whether the optimiser steps after micro-batch `step` (counted from 1) when gradients are
 * accumulated over `accumulationSteps` micro-batches: true on the last micro-batch of each group.
 * With accumulationSteps = 1 it steps every time.
 *
 * Align with: trainer/train_pretrain.py:38-49
 */
export function shouldStepOptimizer(step: number, accumulationSteps: number): boolean {
  throw new NotImplementedError("lesson-14", "shouldStepOptimizer");
}

/**
 * At the end of an epoch whose last micro-batch was `lastStep` and which started after
 * `startStep` (0, or the step a resumed run skipped to): whether gradients are still waiting in a
 * group that never reached `accumulationSteps`, so one more clipped optimiser step must apply them.
 * False when the epoch ran no micro-batch at all.
 *
 * Align with: trainer/train_pretrain.py:75-80
 */
export function shouldFlushTail(lastStep: number, startStep: number, accumulationSteps: number): boolean {
  throw new NotImplementedError("lesson-14", "shouldFlushTail");
}
