/**
 * Lesson 25 — which response tokens PPO trains on.
 *
 * Shapes: B responses, R generated positions each (right-padded to the longest).
 * Read lessons/25-reward-logprob-kl.md first; MiniMind is cited at commit d65ef2c.
 */
import * as tf from "../../lib/tf.js";

/**
 * The PPO policy (and value) mask over the response: each row's real positions up to and including
 * its first EOS (the policy learns to stop). An EOS at a pad position ends nothing; a row with no
 * EOS keeps the real positions among its first Σ padMask (all of them under right padding); an
 * all-padding row keeps nothing.
 *
 * `completionIds`: [B, R] int32; `padMask`: [B, R] 0/1 (1 = a real generated position).
 * Returns [B, R] float32 0/1.
 *
 * Align with: trainer/train_ppo.py:122-126
 */
export function ppoResponseMask(completionIds: tf.Tensor2D, padMask: tf.Tensor2D, eosTokenId: number): tf.Tensor2D {
  // BEGIN SOLUTION
  const [B, R] = completionIds.shape;
  const ids = completionIds.dataSync();
  const valid = padMask.dataSync();
  const mask = new Float32Array(B * R);
  for (let b = 0; b < B; b++) {
    const row = b * R;
    let validCount = 0;
    let firstEos = -1;
    for (let j = 0; j < R; j++) {
      if (valid[row + j] === 0) continue;
      validCount++;
      if (firstEos < 0 && ids[row + j] === eosTokenId) firstEos = j;
    }
    const length = Math.max(firstEos >= 0 ? firstEos + 1 : validCount, 1);
    for (let j = 0; j < length && j < R; j++) mask[row + j] = valid[row + j] === 0 ? 0 : 1;
  }
  return tf.tensor2d(mask, [B, R]);
  // END SOLUTION
}
