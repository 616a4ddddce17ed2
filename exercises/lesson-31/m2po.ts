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
 * The M2PO loss mask.
 *
 * `oldLogp` (log π_behave), `proxLogp` (log π_prox): [B, T] float32; `lossMask`: [B, T] bool;
 * `m2Threshold`: τ. Over the n tokens where lossMask is true:
 *   m2 = (oldLogp − proxLogp)²
 *   sort m2 in descending order: s_0 ≥ s_1 ≥ … ≥ s_{n−1}
 *   k = the first i with (s_i + … + s_{n−1}) / (n − i) < τ (strict), or n − 1 when there is none
 *   mask out the k tokens with the largest m2; keep the rest.
 * Returns a [B, T] bool tensor: true on the kept tokens, false on masked-out and padding tokens.
 * With no valid token the loss mask comes back unchanged. At most n − 1 tokens are masked, so at
 * least one always survives. Tokens tied on m2 are ordered by position (earlier first); AReaL
 * leaves that order to torch.sort.
 *
 * The mask is bookkeeping, not a differentiable op, so the reference works on typed arrays.
 *
 * Align with: areal/trainer/ppo/actor.py:790-850
 */
export function m2poMask(oldLogp: tf.Tensor2D, proxLogp: tf.Tensor2D, lossMask: tf.Tensor2D, m2Threshold: number): tf.Tensor2D {
  throw new NotImplementedError("lesson-31", "m2poMask");
}
