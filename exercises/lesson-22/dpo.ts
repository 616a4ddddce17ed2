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
 * Returns [B, T] float32 with
 *   logp[b, t] = log_softmax(logits[b, t, :])[labels[b, t]]
 *            = logits[b, t, y] − log Σ_v exp(logits[b, t, v]).
 *
 * The pick is a multiply by a one-hot mask and a sum over V, not `tf.gatherND`: TensorFlow.js has
 * no gradient for gatherND, and DPO trains through these numbers.
 *
 * Align with: trainer/train_dpo.py:25-31
 */
export function tokenLogProbs(logits: tf.Tensor3D, labels: tf.Tensor2D): tf.Tensor2D {
  throw new NotImplementedError("lesson-22", "tokenLogProbs");
}

/**
 * MiniMind's DPO loss for a batch laid out as [chosen; rejected].
 *
 * `refLogProbs`, `policyLogProbs`: [B, T] float32 token log-probabilities from the frozen reference
 * model and from the policy being trained; `mask`: [B, T] 0/1, the response tokens; `beta`: β.
 * B must be even. Per sequence, the masked SUM (not mean) of log-probabilities:
 *   s_b = Σ_t logp[b, t]·mask[b, t]
 * then, with pair i made of chosen row i and rejected row i + B/2,
 *   z_i = (s^π_chosen − s^π_rejected) − (s^ref_chosen − s^ref_rejected)
 *   loss = mean_i −log σ(β·z_i)
 * Returns a scalar. −log σ(x) is computed as softplus(−x), which stays finite for very negative x
 * (and, unlike tf.logSigmoid, keeps a working gradient in TensorFlow.js).
 *
 * Align with: trainer/train_dpo.py:34-50
 */
export function dpoLoss(refLogProbs: tf.Tensor2D, policyLogProbs: tf.Tensor2D, mask: tf.Tensor2D, beta: number): tf.Scalar {
  throw new NotImplementedError("lesson-22", "dpoLoss");
}
