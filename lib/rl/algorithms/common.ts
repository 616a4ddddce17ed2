/**
 * Pieces the RL algorithms share: the masked mean, the sampling and rewards of a step, its metrics,
 * and lesson 25's diagnostics (the policy update itself is the context's `policyGradients`).
 */
import * as tf from "../../tf.js";
import { rollout, type RolloutFunctions } from "../rollout.js";
import type { RlContext, StepMetrics } from "../run.js";
import { rewardStats } from "../rewards.js";
import { exactMatch, type TaskRecord } from "../task-answers.js";

/** Σ(x·m) / max(Σm, 1) as a number. */
export function maskedMeanValue(x: tf.Tensor, mask: tf.Tensor): number {
  return tf.tidy(() => tf.div(tf.sum(tf.mul(x, mask)), tf.maximum(tf.sum(mask), 1)).dataSync()[0]);
}

export type Diagnostics = {
  approxKl: (logRatio: tf.Tensor2D, mask: tf.Tensor2D) => tf.Scalar;
  clipFraction: (ratio: tf.Tensor2D, mask: tf.Tensor2D, eps: number) => tf.Scalar;
};

/** Lesson 25's approx-KL (π_old → π_new) and clip fraction of a step, as numbers. */
export function ratioDiagnostics(d: Diagnostics, newLogps: tf.Tensor2D, oldLogps: tf.Tensor2D, mask: tf.Tensor2D, eps: number): { approxKl: number; clipFraction: number } {
  return tf.tidy(() => {
    const logRatio = tf.sub(newLogps, oldLogps) as tf.Tensor2D;
    return { approxKl: d.approxKl(logRatio, mask).dataSync()[0], clipFraction: d.clipFraction(tf.exp(logRatio) as tf.Tensor2D, mask, eps).dataSync()[0] };
  });
}

/** Mean of a list of numbers (0 for none). */
export const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);

/**
 * One step's sampling: the next prompts, `numGenerations` completions of each (rows in prompt order,
 * a prompt's samples together), the task record each row answers, and each row's reward.
 */
export function sampleAndReward(ctx: RlContext, step: number, fns: RolloutFunctions) {
  const s = ctx.settings;
  const records = ctx.nextPrompts(s.promptsPerStep);
  const r = rollout(ctx.policy, fns, records.map((t) => ctx.promptIds(t)), ctx.decode, {
    numGenerations: s.numGenerations,
    maxNewTokens: s.maxNewTokens,
    temperature: s.temperature,
    seed: s.seed * 100_003 + step,
    eosId: ctx.tok.eosId,
    padId: ctx.tok.padId,
  });
  const answered = records.flatMap((t) => new Array(s.numGenerations).fill(t) as typeof records);
  return { records, r, answered, rewards: ctx.rewards(r.texts, answered) };
}

/**
 * The metrics every sampling algorithm logs for a step: the rewards' mean and spread, the exact-match
 * accuracy of the step's own samples, and the loss, KL to the reference and clip fraction it measured.
 */
export function sampledStepMetrics(
  r: { texts: string[]; entropy: number; lengths: number[] },
  answered: readonly TaskRecord[],
  rewards: readonly number[],
  measured: { loss: number; klRef: number; clipFraction: number },
  extra: Record<string, number>,
): StepMetrics {
  const stats = rewardStats(rewards);
  return {
    ...measured,
    rewardMean: stats.mean,
    rewardStd: stats.std,
    accuracy: mean(r.texts.map((t, i) => exactMatch(t, answered[i].answer))),
    entropy: r.entropy,
    responseLength: mean(r.lengths),
    extra,
  };
}
