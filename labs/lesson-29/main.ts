/**
 * Lab 29: decoupled PPO on stale data. First the per-token loss against the ratio for PPO's clip,
 * clip-higher and the dual clip (an SVG); then a small asynchronous experiment: a softmax policy
 * over K arms learns from batches that a policy `STALENESS` versions old generated, with the trust
 * region centred on the behaviour policy (plain PPO) or on the proximal policy (decoupled PPO).
 * Runs your lesson functions where they pass grading, the reference elsewhere (the lab prints which).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as tf from "../../lib/tf.js";
import { lineChart } from "../../lib/svg.js";
import { Rng } from "../../lib/random.js";
import type * as DecoupledPpo from "../../exercises/lesson-29/decoupled-ppo.js";
import type { DecoupledPpoOptions } from "../../exercises/lesson-29/decoupled-ppo.js";
import { labFunctions, type Lab } from "../lab.js";

/** The lesson functions this lab runs, through lib/resolver.ts: yours where they pass grading, else the reference. */
const HOMES = { decoupledPpoLoss: "lesson-29" };
type Functions = { decoupledPpoLoss: typeof DecoupledPpo.decoupledPpoLoss };
let { decoupledPpoLoss } = {} as Functions;

const EPS = 0.2;
const EPS_HIGH = 0.28;
const C_CLIP = 3;

/** The loss of a single token with ratio r = exp(logprob − proximal logprob) and advantage A. */
function tokenLoss(ratio: number, advantage: number, options: Partial<DecoupledPpoOptions>): number {
  return tf.tidy(() => {
    const one = (x: number) => tf.tensor2d([[x]]);
    const result = decoupledPpoLoss({
      logprobs: one(Math.log(ratio)),
      proximalLogprobs: one(0),
      oldLogprobs: one(0),
      advantages: one(advantage),
      lossMask: tf.tensor2d([[true]], [1, 1], "bool"),
      epsClip: EPS,
      ...options,
    });
    return result.loss.dataSync()[0];
  });
}

function plotLossCurves(outDir: string): string {
  const ratios = Array.from({ length: 79 }, (_, i) => 0.05 * (i + 1));
  const curve = (advantage: number, options: Partial<DecoupledPpoOptions>) => ratios.map((r) => [r, tokenLoss(r, advantage, options)] as const);
  const svg = lineChart({
    title: "Per-token decoupled PPO loss against the ratio π_θ/π_prox",
    xLabel: "ratio r",
    yLabel: "loss L(r)",
    series: [
      { name: "A=+1, ε=0.2", points: curve(1, {}) },
      { name: "A=+1, ε_high=0.28", points: curve(1, { epsClipHigher: EPS_HIGH }), dashed: true },
      { name: "A=−1, ε=0.2", points: curve(-1, {}) },
      { name: "A=−1, dual clip c=3", points: curve(-1, { cClip: C_CLIP }), dashed: true },
    ],
    guides: [
      { x: 1 - EPS, label: "1−ε" },
      { x: 1 + EPS, label: "1+ε" },
      { x: C_CLIP, label: "c" },
    ],
  });
  const file = join(outDir, "loss-vs-ratio.svg");
  writeFileSync(file, svg);
  return file;
}

// ---- A stale K-armed bandit --------------------------------------------------------------------

const ARMS = 8;
const REWARDS = Array.from({ length: ARMS }, (_, a) => a / (ARMS - 1));
const BATCH = 64;
const STEPS = 60;
const STALENESS = 4;
const EPOCHS = 4;
const LEARNING_RATE = 0.5;

type Variant = { name: string; centre: "behaviour" | "proximal"; options: Partial<DecoupledPpoOptions> };

const VARIANTS: Variant[] = [
  { name: "PPO, clip around π_behave", centre: "behaviour", options: {} },
  { name: "decoupled, clip around π_prox", centre: "proximal", options: {} },
  { name: "decoupled + rejection (mask > 2)", centre: "proximal", options: { rejectionSampling: { action: "mask", upper: 2 } } },
];

/** Draws `n` arms from the softmax of `logits` with a seeded generator. */
function sampleArms(logits: Float32Array, n: number, rng: Rng): number[] {
  const max = Math.max(...logits);
  const weights = Array.from(logits, (z) => Math.exp(z - max));
  const total = weights.reduce((s, w) => s + w, 0);
  return Array.from({ length: n }, () => {
    let u = rng.next() * total;
    let arm = 0;
    while (arm < ARMS - 1 && u >= weights[arm]) u -= weights[arm++];
    return arm;
  });
}

/** log π(arm) for each sampled arm, as a [1, n] tensor (one row of n tokens). */
const armLogprobs = (logits: tf.Tensor, arms: tf.Tensor1D) => tf.gather(tf.logSoftmax(logits), arms).reshape([1, -1]) as tf.Tensor2D;

interface RunTrace {
  expectedReward: number[];
  clipFraction: number[];
}

/** Trains one variant; at step s the batch comes from the policy of version max(0, s − STALENESS). */
function trainStale(variant: Variant, seed: number): RunTrace {
  const rng = new Rng(seed);
  const logits = tf.variable(tf.zeros([ARMS]), true, `logits-${variant.name}`);
  const optimizer = tf.train.sgd(LEARNING_RATE);
  const versions: Float32Array[] = [];
  const trace: RunTrace = { expectedReward: [], clipFraction: [] };
  for (let step = 0; step < STEPS; step++) {
    versions.push(Float32Array.from(logits.dataSync()));
    const behaviour = versions[Math.max(0, step - STALENESS)];
    const armList = sampleArms(behaviour, BATCH, rng);
    const rewards = armList.map((a) => REWARDS[a]);
    const mean = rewards.reduce((s, r) => s + r, 0) / BATCH;
    const std = Math.sqrt(rewards.reduce((s, r) => s + (r - mean) ** 2, 0) / BATCH);

    const arms = tf.tensor1d(armList, "int32");
    const advantages = tf.tensor2d([rewards.map((r) => (r - mean) / (std + 1e-6))]);
    const lossMask = tf.ones([1, BATCH], "bool") as tf.Tensor2D;
    const oldLogprobs = tf.tidy(() => armLogprobs(tf.tensor1d(behaviour), arms));
    const proximalLogprobs = variant.centre === "behaviour" ? oldLogprobs.clone() : tf.tidy(() => armLogprobs(logits, arms));
    const batch = { proximalLogprobs, oldLogprobs, advantages, lossMask, epsClip: EPS, ...variant.options };

    let clipped = 0;
    for (let epoch = 0; epoch < EPOCHS; epoch++) {
      optimizer.minimize(() => decoupledPpoLoss({ ...batch, logprobs: armLogprobs(logits, arms) }).loss);
      if (epoch === EPOCHS - 1) {
        clipped = tf.tidy(() => tf.mean(tf.cast(decoupledPpoLoss({ ...batch, logprobs: armLogprobs(logits, arms) }).clipMask, "float32")).dataSync()[0]);
      }
    }
    trace.clipFraction.push(clipped);
    trace.expectedReward.push(tf.tidy(() => tf.sum(tf.mul(tf.softmax(logits), REWARDS)).dataSync()[0]));
    tf.dispose([arms, advantages, lossMask, oldLogprobs, proximalLogprobs]);
  }
  logits.dispose();
  optimizer.dispose();
  return trace;
}

const lab: Lab = async (ctx) => {
  console.log("Lab 29 — decoupled PPO\n");
  ({ decoupledPpoLoss } = await labFunctions<Functions>(ctx, HOMES));
  console.log(`Per-token loss at a few ratios (ε=${EPS}, ε_high=${EPS_HIGH}, c=${C_CLIP}):`);
  console.log("   r     A=+1 ε   A=+1 ε_high   A=−1 ε   A=−1 dual");
  for (const r of [0.5, 0.8, 1, 1.25, 1.5, 3, 4]) {
    const cells = [tokenLoss(r, 1, {}), tokenLoss(r, 1, { epsClipHigher: EPS_HIGH }), tokenLoss(r, -1, {}), tokenLoss(r, -1, { cClip: C_CLIP })];
    console.log(`${r.toFixed(2).padStart(5)} ${cells.map((x) => x.toFixed(3).padStart(10)).join("  ")}`);
  }
  console.log(`\nwrote ${ctx.show(plotLossCurves(ctx.outDir))}`);

  console.log(`\nStale bandit: ${ARMS} arms (reward a/${ARMS - 1}), ${BATCH} samples a step, data ${STALENESS} versions old, ${EPOCHS} SGD epochs a step (lr ${LEARNING_RATE}).`);
  const t0 = performance.now();
  const traces = VARIANTS.map((v) => trainStale(v, 7));
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  console.log(`expected reward of π_θ (best possible ${REWARDS[ARMS - 1].toFixed(3)}), and the share of clipped tokens in the last epoch:`);
  console.log(`step ${VARIANTS.map((v) => v.name.padStart(34)).join("")}`);
  const cell = (t: RunTrace, s: number) => `${t.expectedReward[s].toFixed(3)} (clip ${(100 * t.clipFraction[s]).toFixed(0).padStart(3)}%)`.padStart(34);
  for (const s of [0, 10, 20, 30, 40, 50, STEPS - 1]) console.log(`${String(s).padStart(4)} ${traces.map((t) => cell(t, s)).join("")}`);
  console.log(`(${STEPS} steps × ${VARIANTS.length} variants in ${seconds} s on ${ctx.backend})`);

  const svg = lineChart({
    title: `Learning from data ${STALENESS} versions stale`,
    xLabel: "training step",
    yLabel: "expected reward of π_θ",
    series: VARIANTS.map((v, i) => ({ name: v.name, points: traces[i].expectedReward.map((y, s) => [s, y] as const), dashed: i === 2 })),
    width: 760,
  });
  const file = join(ctx.outDir, "stale-bandit.svg");
  writeFileSync(file, svg);
  console.log(`wrote ${ctx.show(file)}`);
};

export default lab;
