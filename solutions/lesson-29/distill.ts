/**
 * Lesson 29 — Joint distillation in AReaL's actor: a teacher's log-probabilities on the sampled
 * tokens turn into a reverse-KL term, either alone (pure KD) or added to the RL loss (KDRL).
 *
 * Shapes: B sequences, T token positions; every log-prob tensor [B, T] float32, the mask [B, T]
 * bool. Read lessons/29-decoupled-ppo.md first; AReaL is cited at commit 4aef98d8.
 */
import * as tf from "../../lib/tf.js";
import { stopGradient } from "../../lib/autograd.js";

export interface DistillInputs {
  /** log π_θ of the sampled tokens (the training forward pass): the gradient flows through it. */
  logprobs: tf.Tensor2D;
  /** log π_old: the log-probs the loss's importance weight is taken against. */
  oldLogp: tf.Tensor2D;
  /** log π_teacher of the same tokens; a fixed target (no gradient). */
  teacherLogp: tf.Tensor2D;
  lossMask: tf.Tensor2D;
  /** The RL (PPO) loss of the same micro-batch, a scalar. */
  rlLoss: tf.Scalar;
  /** rl_loss_weight (default 1); 0 selects pure knowledge distillation. */
  rlLossWeight?: number;
  /** distill_loss_weight (default 0.005). */
  distillLossWeight?: number;
}

export interface DistillResult {
  /** What the actor minimises. */
  loss: tf.Scalar;
  /** [B, T] the per-token term AReaL logs as rkl_loss (0 off the mask). */
  rklStat: tf.Tensor2D;
}

/**
 * AReaL's joint distillation loss. With `rlLossWeight` = 0 (KD), a reverse-KL policy-gradient term
 * alone: the teacher-minus-student log-prob acts as a per-token reward (no gradient through it),
 * importance-weighted by π_θ/π_old. Otherwise (KDRL), the weighted RL loss plus the weighted masked
 * mean of log π_θ − log π_teacher. Means divide by max(Σ mask, 1); the teacher gets no gradient.
 *
 * Align with: areal/trainer/ppo/actor.py:482-512
 */
export function distillLoss(inputs: DistillInputs): DistillResult {
  // BEGIN SOLUTION
  const { logprobs, oldLogp, lossMask, rlLoss } = inputs;
  const rlLossWeight = inputs.rlLossWeight ?? 1;
  const distillLossWeight = inputs.distillLossWeight ?? 0.005;
  return tf.tidy(() => {
    const mask = tf.cast(lossMask, "float32");
    const count = tf.maximum(tf.sum(mask), 1);
    const teacher = stopGradient(inputs.teacherLogp);
    if (rlLossWeight === 0) {
      // Pure KD: reward = teacher − student (detached), weighted by π_θ/π_old, which carries the gradient.
      const rklReward = tf.sub(teacher, stopGradient(logprobs));
      const importanceWeight = tf.exp(tf.sub(logprobs, oldLogp));
      const weighted = tf.mul(tf.mul(importanceWeight, rklReward), mask);
      const loss = tf.div(tf.mul(-distillLossWeight, tf.sum(weighted)), count) as tf.Scalar;
      return { loss, rklStat: tf.neg(weighted) as tf.Tensor2D };
    }
    // KDRL: the RL loss plus a penalty on the student's log-prob above the teacher's.
    const penaltyPerToken = tf.mul(tf.sub(logprobs, teacher), mask);
    const penalty = tf.div(tf.sum(penaltyPerToken), count);
    const loss = tf.add(tf.mul(rlLossWeight, rlLoss), tf.mul(distillLossWeight, penalty)) as tf.Scalar;
    return { loss, rklStat: penaltyPerToken as tf.Tensor2D };
  });
  // END SOLUTION
}
