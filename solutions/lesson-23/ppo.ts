/**
 * Lesson 23 — PPO, end to end: the five computations MiniMind's PPO step is made of.
 *
 * Shapes: B sequences in the batch, R response positions (the generated tokens, right-padded).
 * Masks are float32 tensors of 0/1 with the shape of the values they mask.
 * Read lessons/23-ppo-training-flow.md first; every function cites the MiniMind lines it mirrors
 * at commit d65ef2c (jingyaogong/minimind).
 */
import * as tf from "../../lib/tf.js";

// BEGIN SOLUTION
/** Σ(x·m) / max(Σm, 1): the mean over the tokens the mask keeps; 0 when it keeps none. */
function maskedMean(x: tf.Tensor, mask: tf.Tensor): tf.Scalar {
  return tf.div(tf.sum(tf.mul(x, mask)), tf.maximum(tf.sum(mask), 1));
}
// END SOLUTION

/**
 * Where in the logits each response token's log-probability lives.
 *
 * `promptLens`: [B] int32, the (padded) prompt length of each row; `responseLen`: R.
 * Returns [B, R] int32 with `positions[b, j] = promptLens[b] − 1 + j`: the logits at position
 * p predict the token at p + 1, so response token j (at p = promptLen + j) is predicted by the
 * logits at promptLen − 1 + j.
 *
 * Align with: trainer/train_ppo.py:119-121
 */
export function responseLogpPositions(promptLens: tf.Tensor1D, responseLen: number): tf.Tensor2D {
  // BEGIN SOLUTION
  return tf.tidy(() => {
    const firstPosition = tf.sub(promptLens, tf.scalar(1, "int32")).expandDims(1); // [B, 1]
    const offsets = tf.range(0, responseLen, 1, "int32").expandDims(0); // [1, R]
    return tf.add(firstPosition, offsets) as tf.Tensor2D; // [B, R], int32 throughout
  });
  // END SOLUTION
}

/** The outputs of `maskedGae`, both [B, R] float32. */
export interface GaeResult {
  /** GAE advantages, normalised over the masked tokens and zero where the mask is 0. */
  advantages: tf.Tensor2D;
  /** A + V before normalisation: the critic's regression targets. */
  returns: tf.Tensor2D;
}

/**
 * Generalised advantage estimation over the response, then masked normalisation.
 *
 * `tokenRewards`, `values`, `mask`: [B, R] float32. For t = R−1 down to 0 (V_R = 0):
 *   δ_t = r_t + γ·V_{t+1} − V_t,   A_t = δ_t + γλ·A_{t+1}   (over all R positions, mask unused)
 *   returns = A + V
 *   A ← (A − μ)·(σ² + 1e-8)^(−1/2)·mask, with μ and σ² the masked mean and population variance
 *   over all B·R tokens (denominators max(Σmask, 1)).
 *
 * The reference solution reads the tensors once and runs the recursion on typed arrays: GAE is computed
 * without gradients, and a per-timestep tensor loop costs R small kernel launches (see
 * `npm run bench`). The recursion is the same either way.
 *
 * Align with: trainer/train_ppo.py:139-150
 */
export function maskedGae(tokenRewards: tf.Tensor2D, values: tf.Tensor2D, mask: tf.Tensor2D, gamma: number, lam: number): GaeResult {
  // BEGIN SOLUTION
  const [B, R] = values.shape;
  const r = tokenRewards.dataSync();
  const v = values.dataSync();
  const m = mask.dataSync();

  const advantages = new Float32Array(B * R);
  for (let b = 0; b < B; b++) {
    let nextAdvantage = 0;
    for (let t = R - 1; t >= 0; t--) {
      const i = b * R + t;
      const nextValue = t < R - 1 ? v[i + 1] : 0;
      const delta = r[i] + gamma * nextValue - v[i];
      nextAdvantage = delta + gamma * lam * nextAdvantage;
      advantages[i] = nextAdvantage;
    }
  }
  const returns = advantages.map((a, i) => a + v[i]);

  let count = 0;
  let sum = 0;
  for (let i = 0; i < m.length; i++) {
    count += m[i];
    sum += advantages[i] * m[i];
  }
  const denom = Math.max(count, 1);
  const mean = sum / denom;
  let sqSum = 0;
  for (let i = 0; i < m.length; i++) sqSum += (advantages[i] - mean) ** 2 * m[i];
  const invStd = 1 / Math.sqrt(sqSum / denom + 1e-8);
  const normalised = advantages.map((a, i) => (a - mean) * invStd * m[i]);

  return { advantages: tf.tensor2d(normalised, [B, R]), returns: tf.tensor2d(returns, [B, R]) };
  // END SOLUTION
}

/**
 * PPO's clipped surrogate policy loss (without the reference-KL term MiniMind adds beside it).
 *
 * `newLogps`, `oldLogps`, `advantages`, `mask`: [B, R]. With ρ = exp(new − old):
 *   loss = masked mean of max(−A·ρ, −A·clip(ρ, 1−ε, 1+ε))
 * The max of the two negated objectives is the pessimistic (lower) bound of the surrogate.
 * Returns a scalar.
 *
 * Align with: trainer/train_ppo.py:204-211
 */
export function ppoPolicyLoss(newLogps: tf.Tensor2D, oldLogps: tf.Tensor2D, advantages: tf.Tensor2D, mask: tf.Tensor2D, clipEpsilon: number): tf.Scalar {
  // BEGIN SOLUTION
  return tf.tidy(() => {
    const ratio = tf.exp(tf.sub(newLogps, oldLogps));
    const negAdv = tf.neg(advantages);
    const unclipped = tf.mul(negAdv, ratio);
    const clipped = tf.mul(negAdv, tf.clipByValue(ratio, 1 - clipEpsilon, 1 + clipEpsilon));
    return maskedMean(tf.maximum(unclipped, clipped), mask);
  });
  // END SOLUTION
}

/**
 * KL penalty against the frozen reference model, in the k3 form (non-negative, low variance).
 *
 * `policyLogps`, `refLogps`, `mask`: [B, R]. With u = ref − policy:
 *   penalty = masked mean of exp(u) − u − 1
 * Returns a scalar; MiniMind adds kl_coef times it to the policy loss.
 *
 * Align with: trainer/train_ppo.py:207-208
 */
export function referenceKlPenalty(policyLogps: tf.Tensor2D, refLogps: tf.Tensor2D, mask: tf.Tensor2D): tf.Scalar {
  // BEGIN SOLUTION
  return tf.tidy(() => {
    const u = tf.sub(refLogps, policyLogps);
    return maskedMean(tf.sub(tf.sub(tf.exp(u), u), 1), mask);
  });
  // END SOLUTION
}

/**
 * The critic's clipped value loss.
 *
 * `values` (new), `oldValues` (from the rollout), `returns`, `mask`: [B, R]; `cliprangeValue`: c.
 *   V_clip = clip(V, V_old − c, V_old + c)
 *   loss = 0.5 · masked mean of max((V − R)², (V_clip − R)²)
 * Returns a scalar.
 *
 * Align with: trainer/train_ppo.py:213-216
 */
export function clippedValueLoss(values: tf.Tensor2D, oldValues: tf.Tensor2D, returns: tf.Tensor2D, mask: tf.Tensor2D, cliprangeValue: number): tf.Scalar {
  // BEGIN SOLUTION
  return tf.tidy(() => {
    const clippedValues = tf.minimum(tf.maximum(values, tf.sub(oldValues, cliprangeValue)), tf.add(oldValues, cliprangeValue));
    const unclippedLoss = tf.square(tf.sub(values, returns));
    const clippedLoss = tf.square(tf.sub(clippedValues, returns));
    return tf.mul(0.5, maskedMean(tf.maximum(unclippedLoss, clippedLoss), mask));
  });
  // END SOLUTION
}
