/**
 * Lesson 31 — M2PO: keep stale samples trainable by dropping only the tokens whose behaviour and
 * proximal log-probabilities disagree the most, until the batch's second moment is small.
 *
 * Shapes: B sequences, T token positions; masks are `bool` [B, T].
 * Read lessons/31-m2po.md first; every rule cites AReaL at commit 4aef98d8 (inclusionAI/AReaL).
 */
import * as tf from "../../lib/tf.js";

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
  // BEGIN SOLUTION
  const oldValues = oldLogp.dataSync();
  const proxValues = proxLogp.dataSync();
  const valid = lossMask.dataSync();

  const m2 = new Float64Array(valid.length);
  const positions: number[] = [];
  for (let i = 0; i < valid.length; i++) {
    if (!valid[i]) continue;
    m2[i] = (oldValues[i] - proxValues[i]) ** 2;
    positions.push(i);
  }
  const kept = new Uint8Array(valid.length);
  const n = positions.length;
  if (n > 0) {
    const largestFirst = positions.sort((a, b) => m2[b] - m2[a] || a - b);
    // suffixMean[i]: the mean of largestFirst[i..n−1], what remains after masking the i largest.
    const suffixMean = new Float64Array(n);
    let suffixSum = 0;
    for (let i = n - 1; i >= 0; i--) {
      suffixSum += m2[largestFirst[i]];
      suffixMean[i] = suffixSum / (n - i);
    }
    const firstBelow = suffixMean.findIndex((mean) => mean < m2Threshold);
    const numToMask = firstBelow >= 0 ? firstBelow : n - 1;
    for (let i = numToMask; i < n; i++) kept[largestFirst[i]] = 1;
  }
  return tf.tensor2d(kept, lossMask.shape, "bool");
  // END SOLUTION
}
