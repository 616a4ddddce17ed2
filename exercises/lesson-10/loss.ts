/**
 * Lesson 10 — The forward pass and the loss shift.
 *
 * Shapes: B sequences of T positions, V = vocabSize. `logits[b, t]` is the model's prediction made
 * after reading tokens 0..t, so it is scored against the token at t + 1.
 * Read lessons/10-forward-and-loss-shift.md first; the function cites the MiniMind lines it
 * mirrors at commit d65ef2c (jingyaogong/minimind).
 */
import * as tf from "../../lib/tf.js";
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-10`. Generated from
// solutions/ by `npm run stubs`; edit freely.

/**
 * Next-token cross-entropy with the one-position shift and ignored labels.
 *
 * `logits`: [B, T, V] float32; `labels`: [B, T] int32, where `ignoreIndex` (−100) marks positions
 * that are not scored (prompt, padding). Returns a float32 scalar: the mean over every counted
 * token of the batch (not a mean of per-sequence means), differentiable in `logits`. When nothing
 * is counted (every label ignored, or T = 1) the loss is 0/0 = NaN, as PyTorch's `F.cross_entropy`.
 *
 * Align with: model/model_minimind.py:250-252
 */
export function causalLmLoss(logits: tf.Tensor3D, labels: tf.Tensor2D, ignoreIndex = -100): tf.Scalar {
  throw new NotImplementedError("lesson-10", "causalLmLoss");
}
