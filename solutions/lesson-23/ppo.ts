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
 * Returns [B, R] int32: `positions[b, j]` is the sequence position whose logits predicted response
 * token j of row b (the response starts right after the prompt).
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
 * Generalised advantage estimation (γ, λ) over the response, then normalisation over the batch's
 * masked tokens, as MiniMind does it.
 *
 * `tokenRewards`, `values`, `mask`: [B, R] float32. Returns `GaeResult`, both [B, R] float32, no
 * gradients needed. As in MiniMind, the recursion runs over all R positions (nothing follows
 * position R − 1) and the mask enters only the normalisation. An all-masked batch gives
 * advantages of 0, never NaN; T = R = 1 works.
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
 * PPO's clipped surrogate policy loss (without the reference-KL term MiniMind adds beside it), as
 * a loss to minimise: per token the pessimistic of the clipped and unclipped objectives (clip
 * range 1 ± ε), averaged over the tokens the mask keeps.
 *
 * `newLogps`, `oldLogps`, `advantages`, `mask`: [B, R] float32. Returns a float32 scalar,
 * differentiable in `newLogps`; 0 when the mask keeps nothing.
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
 * KL penalty against the frozen reference model: the k3 estimate of KL(π_θ ‖ π_ref) per token
 * (never negative, 0 where the two agree), averaged over the tokens the mask keeps.
 *
 * `policyLogps`, `refLogps`, `mask`: [B, R] float32. Returns a float32 scalar ≥ 0; 0 when the mask
 * keeps nothing. MiniMind adds kl_coef times it to the policy loss.
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
 * The critic's clipped value loss: half the squared error to the returns, where the new values are
 * also clipped to within c of the rollout's and the worse of the two errors counts per token;
 * averaged over the tokens the mask keeps.
 *
 * `values` (new), `oldValues` (from the rollout), `returns`, `mask`: [B, R] float32;
 * `cliprangeValue`: c. Returns a float32 scalar, differentiable in `values`; 0 when all masked.
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
