/**
 * Lesson 25 — the log-probability of each generated token under a model, from its logits.
 *
 * Shapes: B sequences, T tokens each (prompt then response), L logit positions (L = T for a full
 * forward pass, L = nKeep + 1 when the model was asked for the last nKeep + 1 positions only),
 * V vocabulary entries.
 * Read lessons/25-reward-logprob-kl.md first; MiniMind is cited at commit d65ef2c.
 */
import * as tf from "../../lib/tf.js";
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-25`. Generated from
// solutions/ by `npm run stubs`; edit freely.

/**
 * log π(token) for the last `nKeep` tokens of each sequence.
 *
 * `logits`: [B, L, V] float32; `inputIds`: [B, T] int32; returns [B, nKeep] float32.
 * The logits at position p score the token at p + 1, so the last nKeep tokens are scored by the
 * nKeep positions before the last one:
 *   out[b, j] = log_softmax(logits[b, L − nKeep − 1 + j])[inputIds[b, T − nKeep + j]]
 * The last position's logits predict a token that does not exist yet and are dropped.
 * nKeep ≤ 0 gives an empty [B, 0] tensor (in Python `ids[:, -0:]` would be the whole row).
 * Needs L ≥ nKeep + 1 and T ≥ nKeep.
 *
 * The pick is a one-hot multiply-and-sum rather than `tf.gatherND`, which has no gradient in
 * TensorFlow.js: the current policy's log-probs must carry the policy gradient.
 *
 * Align with: trainer/rollout_engine.py:24-36
 */
export function perTokenLogps(logits: tf.Tensor3D, inputIds: tf.Tensor2D, nKeep: number): tf.Tensor2D {
  throw new NotImplementedError("lesson-25", "perTokenLogps");
}
