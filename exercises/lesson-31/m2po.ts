/**
 * Lesson 31 — M2PO: keep stale samples trainable by dropping only the tokens whose behaviour and
 * proximal log-probabilities disagree the most, until the batch's second moment is small.
 *
 * Shapes: B sequences, T token positions; masks are `bool` [B, T].
 * Read lessons/31-m2po.md first; every rule cites AReaL at commit 4aef98d8 (inclusionAI/AReaL).
 */
import * as tf from "../../lib/tf.js";
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-31`. Generated from
// solutions/ by `npm run stubs`; edit freely.

/**
 * The M2PO loss mask: masks out as few valid tokens as possible, those with the largest
 * m2 = (oldLogp − proxLogp)², until the mean m2 of the rest is strictly below τ = `m2Threshold`.
 *
 * `oldLogp` (log π_behave), `proxLogp` (log π_prox): [B, T] float32; `lossMask`: [B, T] bool.
 * Returns [B, T] bool: true on the kept tokens, false on masked-out and padding tokens. At least
 * one valid token always survives; with none, the loss mask comes back unchanged. Of tokens tied
 * on m2 the earlier position goes first (AReaL leaves that order to torch.sort).
 *
 * Align with: areal/trainer/ppo/actor.py:790-850
 */
export function m2poMask(oldLogp: tf.Tensor2D, proxLogp: tf.Tensor2D, lossMask: tf.Tensor2D, m2Threshold: number): tf.Tensor2D {
  throw new NotImplementedError("lesson-31", "m2poMask");
}
