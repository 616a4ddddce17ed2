/**
 * What one training step of the simulation sees, measured with the course's lesson functions:
 * yours where they pass grading, the reference elsewhere (lib/resolver.ts; `resolveStepFunctions`
 * prints which). This is the only file of the capstone that calls them: lesson 29
 * (decoupledPpoLoss), lesson 30 (proxLogpApproximations, stalenessStats) and lesson 34 (normalize,
 * rejectionSampling, splitMicroBatches).
 */
import * as tf from "../../lib/tf.js";
import type * as DecoupledPpo from "../../exercises/lesson-29/decoupled-ppo.js";
import type * as ProxApprox from "../../exercises/lesson-30/prox-approx.js";
import type * as Microbatch from "../../exercises/lesson-34/microbatch.js";
import type * as Normalize from "../../exercises/lesson-34/normalize.js";
import type * as Rejection from "../../exercises/lesson-34/rejection.js";
import { labFunctions, type LabContext } from "../lab.js";
import type { ToyPolicy } from "./policy.js";
import type { TrainStep } from "./simulation.js";

/** The lesson functions this lab runs, through lib/resolver.ts: yours where they pass grading, else the reference. */
const HOMES = { decoupledPpoLoss: "lesson-29", proxLogpApproximations: "lesson-30", stalenessStats: "lesson-30", splitMicroBatches: "lesson-34", normalize: "lesson-34", rejectionSampling: "lesson-34" };
type Functions = { decoupledPpoLoss: typeof DecoupledPpo.decoupledPpoLoss; proxLogpApproximations: typeof ProxApprox.proxLogpApproximations; stalenessStats: typeof ProxApprox.stalenessStats; splitMicroBatches: typeof Microbatch.splitMicroBatches; normalize: typeof Normalize.normalize; rejectionSampling: typeof Rejection.rejectionSampling };
let { decoupledPpoLoss, proxLogpApproximations, stalenessStats, splitMicroBatches, normalize, rejectionSampling } = {} as Functions;

/** Resolves the lesson functions `stepMetrics` calls and prints whose they are; call it once first. */
export async function resolveStepFunctions(ctx: LabContext): Promise<void> {
  ({ decoupledPpoLoss, proxLogpApproximations, stalenessStats, splitMicroBatches, normalize, rejectionSampling } = await labFunctions<Functions>(ctx, HOMES));
}

export interface MetricSettings {
  /** ε of the PPO clip. */
  epsClip: number;
  /** Bounds of token-level rejection sampling on π_prox/π_behave. */
  rejectLower: number;
  rejectUpper: number;
  /** ppo_n_minibatches: micro-batches per step. */
  microBatches: number;
}

export interface StepMetrics {
  step: number;
  /** Mean and max of v_prox − v_behave over the batch's tokens (lesson 30). */
  stalenessAvg: number;
  stalenessMax: number;
  /** Share of answers whose tokens come from more than one version. */
  mixedVersionShare: number;
  /** Share of tokens clipped when the trust region is centred on π_behave (plain PPO). */
  clipCoupled: number;
  /** Share of tokens clipped when it is centred on π_prox (decoupled PPO, lesson 29). */
  clipDecoupled: number;
  /** Share of tokens rejection sampling drops (lesson 34). */
  rejected: number;
  /** Mean |approximate − true log π_prox| per method (lesson 30). */
  approxError: { loglinear: number; linear: number; rollout: number };
  /** |decoupled loss with the loglinear approximation − with the true proximal policy|. */
  lossGapLoglinear: number;
  /** Largest micro-batch token count over the mean (1 is perfect balance). */
  microBatchImbalance: number;
}

/** The step's batch as [B, T] arrays: token versions (−1 on padding) and the three log-probabilities. */
function batchArrays(step: TrainStep, policy: ToyPolicy, width: number) {
  const B = step.samples.length;
  const versions = new Int32Array(B * width).fill(-1);
  const mask = new Float32Array(B * width);
  const behave = new Float32Array(B * width);
  const proximal = new Float32Array(B * width);
  const current = new Float32Array(B * width);
  const advantages = new Float32Array(B * width);
  step.samples.forEach((s, b) => {
    s.versions.forEach((v, t) => {
      const i = b * width + t;
      versions[i] = v;
      mask[i] = 1;
      behave[i] = policy.logp(s.id, t, v);
      proximal[i] = policy.logp(s.id, t, step.step);
      current[i] = policy.logp(s.id, t, step.step + 1);
      advantages[i] = s.reward;
    });
  });
  return { B, versions, mask, behave, proximal, current, advantages };
}

/** Σ_mask x / Σ_mask 1 of a tensor, as a number. */
function maskedMean(x: tf.Tensor, mask: tf.Tensor): number {
  return tf.tidy(() => tf.div(tf.sum(tf.mul(tf.cast(x, "float32"), mask)), tf.maximum(tf.sum(mask), 1)).dataSync()[0]);
}

export function stepMetrics(step: TrainStep, policy: ToyPolicy, width: number, settings: MetricSettings): StepMetrics {
  const a = batchArrays(step, policy, width);
  const lengths = step.samples.map((s) => s.versions.length);
  const groups = splitMicroBatches(lengths, settings.microBatches);
  const loads = groups.map((g) => g.reduce((sum, i) => sum + lengths[i], 0));
  const microBatchImbalance = Math.max(...loads) / (loads.reduce((x, y) => x + y, 0) / loads.length);
  const mixedVersionShare = step.samples.filter((s) => new Set(s.versions).size > 1).length / a.B;

  return tf.tidy(() => {
    const shape: [number, number] = [a.B, width];
    const versions = tf.tensor2d(a.versions, shape, "int32");
    const maskFloat = tf.tensor2d(a.mask, shape);
    const maskBool = tf.cast(maskFloat, "bool") as tf.Tensor2D;
    const behave = tf.tensor2d(a.behave, shape);
    const proximal = tf.tensor2d(a.proximal, shape);
    const current = tf.tensor2d(a.current, shape);
    // Outcome reward on every token, then AReaL's default advantage normalisation (batch, masked).
    const advantages = normalize(tf.tensor2d(a.advantages, shape), { mask: maskFloat }) as tf.Tensor2D;

    const currentVersion = step.step + 1;
    const staleness = stalenessStats(versions, currentVersion, maskBool);
    const approx = proxLogpApproximations({ oldLogp: behave, logprobs: current, versions, currentVersion });
    const error = (x: tf.Tensor) => maskedMean(tf.abs(tf.sub(x, proximal)), maskFloat);

    const loss = (proximalLogprobs: tf.Tensor2D) =>
      decoupledPpoLoss({ logprobs: current, proximalLogprobs, oldLogprobs: behave, advantages, lossMask: maskBool, epsClip: settings.epsClip });
    const coupled = loss(behave);
    const decoupled = loss(proximal);
    const approximated = loss(approx.loglinear);
    const rs = rejectionSampling(proximal, behave, maskFloat, { lower: settings.rejectLower, upper: settings.rejectUpper });

    return {
      step: step.step,
      stalenessAvg: staleness?.proximal.avg ?? 0,
      stalenessMax: staleness?.proximal.max ?? 0,
      mixedVersionShare,
      clipCoupled: maskedMean(coupled.clipMask, maskFloat),
      clipDecoupled: maskedMean(decoupled.clipMask, maskFloat),
      rejected: rs.filteredFraction,
      approxError: { loglinear: error(approx.loglinear), linear: error(approx.linear), rollout: error(approx.rollout) },
      lossGapLoglinear: Math.abs(approximated.loss.dataSync()[0] - decoupled.loss.dataSync()[0]),
      microBatchImbalance,
    };
  });
}
