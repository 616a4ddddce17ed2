/**
 * Lesson 22 — The DPO loss: MiniMind's two DPO functions, from logits to one scalar.
 *
 * Shapes: B sequences in the batch (the first B/2 chosen responses, then their B/2 rejected
 * partners, pair i being rows i and i + B/2), T positions, V the vocabulary size.
 * Read lessons/22-dpo-loss.md first; every function cites the MiniMind lines it mirrors at commit
 * d65ef2c (jingyaogong/minimind).
 */
import * as tf from "../../lib/tf.js";
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-22`. Generated from
// solutions/ by `npm run stubs`; edit freely.

/**
 * The log-probability the model gives each label token.
 *
 * `logits`: [B, T, V] float32, the model's scores at each position; `labels`: [B, T] int32, the
 * token each position should predict (already shifted by the dataset: y = ids[1:]).
 * Returns [B, T] float32, every entry ≤ 0, differentiable in `logits` (DPO trains through it).
 *
 * Align with: trainer/train_dpo.py:25-31
 */
export function tokenLogProbs(logits: tf.Tensor3D, labels: tf.Tensor2D): tf.Tensor2D {
  throw new NotImplementedError("lesson-22", "tokenLogProbs");
}

/**
 * MiniMind's DPO loss for a batch laid out as [chosen; rejected]: pair i is chosen row i and
 * rejected row i + B/2 (B even).
 *
 * `refLogProbs`, `policyLogProbs`: [B, T] float32 token log-probabilities from the frozen reference
 * model and from the policy being trained; `mask`: [B, T] 0/1, the response tokens; `beta`: β.
 * A response's log-probability covers its masked tokens only. Returns a float32 scalar, the mean
 * over the B/2 pairs, finite even for huge margins and differentiable in `policyLogProbs`.
 *
 * Align with: trainer/train_dpo.py:34-50
 */
export function dpoLoss(refLogProbs: tf.Tensor2D, policyLogProbs: tf.Tensor2D, mask: tf.Tensor2D, beta: number): tf.Scalar {
  throw new NotImplementedError("lesson-22", "dpoLoss");
}
