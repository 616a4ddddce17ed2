/** Parametrised wrong versions of lesson 29's distillLoss: each mutant file turns on one flaw. */
import * as tf from "../../lib/tf.js";
import { stopGradient } from "../../lib/autograd.js";
import type { DistillInputs, DistillResult } from "../../solutions/lesson-29/distill.js";

export interface DistillFlaws {
  /** KD's reward teacher − student keeps its gradient. */
  rewardNotDetached?: boolean;
  /** KD without the importance weight π_θ/π_old (the reward alone, detached: no gradient at all). */
  noImportanceWeight?: boolean;
  /** KDRL's penalty teacher − student: the sign of the reverse KL flipped. */
  penaltySignFlipped?: boolean;
  /** Means over every position, padding included. */
  meanOverAll?: boolean;
  /** KD still adds the RL loss. */
  kdKeepsRlLoss?: boolean;
  /** `distillLossWeight || 0.005`: a weight of 0 becomes the default. */
  zeroWeightDefaulted?: boolean;
  /** KD's importance weight as exp(log π_θ) / exp(log π_old): 0/0 for log-probs below −104. */
  weightAsQuotient?: boolean;
}

export function distillVariant(flaws: DistillFlaws) {
  return (inputs: DistillInputs): DistillResult => {
    const { logprobs, oldLogp, lossMask, rlLoss } = inputs;
    const rlW = inputs.rlLossWeight ?? 1;
    const kdW = flaws.zeroWeightDefaulted ? inputs.distillLossWeight || 0.005 : (inputs.distillLossWeight ?? 0.005);
    return tf.tidy(() => {
      const mask = tf.cast(lossMask, "float32");
      const count = flaws.meanOverAll ? tf.scalar(mask.size) : tf.maximum(tf.sum(mask), 1);
      const teacher = stopGradient(inputs.teacherLogp);
      if (rlW === 0) {
        const reward = tf.sub(teacher, flaws.rewardNotDetached ? logprobs : stopGradient(logprobs));
        const weight = flaws.noImportanceWeight
          ? tf.onesLike(logprobs)
          : flaws.weightAsQuotient
            ? tf.div(tf.exp(logprobs), tf.exp(oldLogp))
            : tf.exp(tf.sub(logprobs, oldLogp));
        const weighted = tf.mul(tf.mul(weight, reward), mask);
        let loss = tf.div(tf.mul(-kdW, tf.sum(weighted)), count);
        if (flaws.kdKeepsRlLoss) loss = tf.add(loss, rlLoss);
        return { loss: loss as tf.Scalar, rklStat: tf.neg(weighted) as tf.Tensor2D };
      }
      const perToken = tf.mul(flaws.penaltySignFlipped ? tf.sub(teacher, logprobs) : tf.sub(logprobs, teacher), mask);
      const loss = tf.add(tf.mul(rlW, rlLoss), tf.mul(kdW, tf.div(tf.sum(perToken), count)));
      return { loss: loss as tf.Scalar, rklStat: perToken as tf.Tensor2D };
    });
  };
}
