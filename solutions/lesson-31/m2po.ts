/**
 * Lesson 31 — M2PO: keep stale samples trainable by dropping only the tokens whose behaviour and
 * proximal log-probabilities disagree the most, until the batch's second moment is small.
 *
 * Shapes: B sequences, T token positions; masks are `bool` [B, T].
 * Read lessons/31-m2po.md first; every rule cites AReaL at commit 4aef98d8 (inclusionAI/AReaL).
 */
import * as tf from "../../lib/tf.js";

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
