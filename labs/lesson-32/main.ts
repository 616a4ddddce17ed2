/**
 * Lab 32: what GSPO and SAPO change, measured. (1) The gradient weight a token receives as a
 * function of its ratio r, for PPO's hard clip and SAPO's soft gate at three temperatures.
 * (2) How the spread of GSPO's sequence-level ratio shrinks with the sequence length. (3) A
 * six-armed bandit optimised for many steps on one fixed batch (as PPO's inner epochs do), tracing
 * how far each loss lets the policy drift from the one that sampled the batch. Runs your functions
 * where they pass grading, the reference elsewhere (the lab prints which).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as tf from "../../lib/tf.js";
import { lineChart } from "../../lib/svg.js";
import { Rng } from "../../lib/random.js";
import type * as Sapo from "../../exercises/lesson-32/sapo.js";
import { labFunctions, type Lab } from "../lab.js";

/** The lesson functions this lab runs, through lib/resolver.ts: yours where they pass grading, else the reference. */
const HOMES = { sapoLoss: "lesson-32", sequenceLevelRatio: "lesson-32" };
type Functions = { sapoLoss: typeof Sapo.sapoLoss; sequenceLevelRatio: typeof Sapo.sequenceLevelRatio };
let { sapoLoss, sequenceLevelRatio } = {} as Functions;

const EPS = 0.2;
const TAUS = [1, 4, 10];

/**
 * The gradient weight w(r) of one token with A = +1: −d loss / d log π. The vanilla policy gradient
 * has w = r; SAPO's is r·g'(r), read off sapoLoss with tf.grad.
 */
function sapoWeight(ratio: number, tau: number): number {
  return tf.tidy(() => {
    const grad = tf.grad((lp: tf.Tensor) =>
      sapoLoss({ logprobs: lp as tf.Tensor2D, oldLogprobs: tf.zeros([1, 1]), advantages: tf.ones([1, 1]), tauPos: tau, tauNeg: tau, lossMask: tf.ones([1, 1], "bool") }).loss,
    )(tf.tensor2d([[Math.log(ratio)]]));
    return -grad.dataSync()[0];
  });
}

/** PPO's clipped objective for A > 0 passes the gradient r·A until r reaches 1 + ε, then none. */
const ppoWeight = (ratio: number) => (ratio <= 1 + EPS ? ratio : 0);

function gradientWeights(ctx: Parameters<Lab>[0]): void {
  const ratios = Array.from({ length: 116 }, (_, i) => 0.2 + i * 0.02);
  console.log("Part 1: the gradient weight w(r) = −∂loss/∂log π of one token with A = +1");
  console.log(`  ${"r".padEnd(8)}${"vanilla".padStart(9)}${`PPO ε=${EPS}`.padStart(11)}${TAUS.map((t) => `SAPO τ=${t}`.padStart(11)).join("")}`);
  for (const r of [0.5, 0.9, 1.0, 1.1, 1.3, 1.6, 2.0]) {
    console.log(`  ${r.toFixed(2).padEnd(8)}${r.toFixed(3).padStart(9)}${ppoWeight(r).toFixed(3).padStart(11)}${TAUS.map((t) => sapoWeight(r, t).toFixed(3).padStart(11)).join("")}`);
  }
  console.log("  At r = 1 every SAPO column equals the vanilla weight 1: the 4/τ factor makes the gate's slope exactly 1 there.\n");
  const svg = lineChart({
    title: "Gradient weight per token (A > 0)",
    xLabel: "ratio r = π_θ / π_old",
    yLabel: "−∂loss/∂log π",
    series: [
      { name: "vanilla PG", points: ratios.map((r) => [r, r]), dashed: true, color: "#999" },
      { name: `PPO clip ε=${EPS}`, points: ratios.map((r) => [r, ppoWeight(r)]) },
      ...TAUS.map((t) => ({ name: `SAPO τ=${t}`, points: ratios.map((r): [number, number] => [r, sapoWeight(r, t)]) })),
    ],
    guides: [{ x: 1 + EPS, label: "1 + ε" }],
  });
  const file = join(ctx.outDir, "gradient-weight.svg");
  writeFileSync(file, svg);
  console.log(`  Wrote ${ctx.show(file)}\n`);
}

/** Spread of token ratios vs GSPO's per-sequence ratio, for per-token log-ratios ~ N(0, 0.3²). */
function sequenceRatioSpread(ctx: Parameters<Lab>[0]): void {
  const rng = new Rng(32);
  const rows = 256;
  const std = (xs: number[]) => {
    const m = xs.reduce((a, b) => a + b, 0) / xs.length;
    return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length);
  };
  console.log("Part 2: spread of the ratio, token level vs GSPO's sequence level (log r ~ N(0, 0.3²) per token)");
  console.log(`  ${"length n".padEnd(10)}${"std token r".padStart(13)}${"std GSPO r".padStart(13)}${"share |r−1|>ε, token".padStart(23)}${"… sequence".padStart(12)}`);
  const tokenSeries: Array<[number, number]> = [];
  const seqSeries: Array<[number, number]> = [];
  for (const n of [1, 2, 4, 8, 16, 32, 64, 128]) {
    const [tokenRatios, seqRatios] = tf.tidy(() => {
      const logRatio = tf.tensor2d(rng.normals(rows * n, 0, 0.3), [rows, n]);
      const { ratio } = sequenceLevelRatio(logRatio, tf.zeros([rows, n]), tf.ones([rows, n], "bool"));
      return [Array.from(tf.exp(logRatio).dataSync()), Array.from(ratio.slice([0, 0], [rows, 1]).dataSync())];
    });
    const outside = (xs: number[]) => xs.filter((r) => Math.abs(r - 1) > EPS).length / xs.length;
    console.log(`  ${String(n).padEnd(10)}${std(tokenRatios).toFixed(4).padStart(13)}${std(seqRatios).toFixed(4).padStart(13)}${outside(tokenRatios).toFixed(3).padStart(23)}${outside(seqRatios).toFixed(3).padStart(12)}`);
    tokenSeries.push([Math.log2(n), std(tokenRatios)]);
    seqSeries.push([Math.log2(n), std(seqRatios)]);
  }
  console.log("  The geometric mean averages the noise away (about 0.3/√n in log space): a GSPO clip range must be far narrower than PPO's.\n");
  const file = join(ctx.outDir, "gspo-spread.svg");
  writeFileSync(
    file,
    lineChart({
      title: "Ratio spread vs sequence length",
      xLabel: "log2(sequence length)",
      yLabel: "std of the ratio",
      series: [
        { name: "token ratios", points: tokenSeries },
        { name: "GSPO sequence ratio", points: seqSeries },
      ],
    }),
  );
  console.log(`  Wrote ${ctx.show(file)}\n`);
}

const REWARDS = [1, 0, 0.5, -0.5, 0.2, 0.8];
const SAMPLES = 64;
const STEPS = 60;

type LossOnBatch = (logprobs: tf.Tensor2D, oldLogprobs: tf.Tensor2D, advantages: tf.Tensor2D, mask: tf.Tensor2D) => tf.Scalar;

/** The losses compared in part 3, each a mean over the batch's tokens (the mask keeps them all). */
const LOSSES: Array<[string, LossOnBatch]> = [
  ["vanilla PG", (lp, old, a) => tf.neg(tf.mean(tf.mul(a, tf.exp(tf.sub(lp, old))))) as tf.Scalar],
  [`PPO clip ε=${EPS}`, (lp, old, a) => {
    const r = tf.exp(tf.sub(lp, old));
    return tf.mean(tf.maximum(tf.neg(tf.mul(a, r)), tf.neg(tf.mul(a, tf.clipByValue(r, 1 - EPS, 1 + EPS)))));
  }],
  ...TAUS.map((tau): [string, LossOnBatch] => [`SAPO τ=${tau}`, (lp, old, a, m) => sapoLoss({ logprobs: lp, oldLogprobs: old, advantages: a, tauPos: tau, tauNeg: tau * 1.05, lossMask: m }).loss]),
];

/** Many optimiser steps on one sampled batch: how far does each loss let the policy move? */
function banditDrift(ctx: Parameters<Lab>[0]): void {
  const rng = new Rng(7);
  const oldLogits = rng.normals(REWARDS.length, 0, 0.5);
  const oldProbs = Array.from(tf.tidy(() => tf.softmax(tf.tensor1d(oldLogits))).dataSync());
  const actions = Array.from({ length: SAMPLES }, () => {
    let u = rng.next();
    return Math.max(0, oldProbs.findIndex((p) => (u -= p) < 0));
  });
  const meanReward = actions.reduce((s, a) => s + REWARDS[a], 0) / SAMPLES;
  console.log(`Part 3: a ${REWARDS.length}-armed bandit, ${SAMPLES} samples from the old policy, ${STEPS} SGD steps on that one batch`);
  console.log(`  old policy: [${oldProbs.map((p) => p.toFixed(3)).join(", ")}], expected reward ${oldProbs.reduce((s, p, k) => s + p * REWARDS[k], 0).toFixed(3)}`);
  console.log(`  ${"loss".padEnd(16)}${"mean |log r| after 10 / 30 / 60 steps".padStart(40)}${"expected reward".padStart(18)}`);
  const series = LOSSES.map(([name, loss]) => {
    const logits = tf.variable(tf.tensor1d(oldLogits));
    const optimizer = tf.train.sgd(1.0);
    const idx = tf.tensor1d(actions, "int32");
    const oldLp = tf.tidy(() => tf.gather(tf.logSoftmax(tf.tensor1d(oldLogits)), idx).reshape([1, SAMPLES])) as tf.Tensor2D;
    const adv = tf.tensor2d(actions.map((a) => REWARDS[a] - meanReward), [1, SAMPLES]);
    const mask = tf.ones([1, SAMPLES], "bool") as tf.Tensor2D;
    const points: Array<[number, number]> = [];
    const drift = () => tf.tidy(() => tf.mean(tf.abs(tf.sub(tf.gather(tf.logSoftmax(logits), idx).reshape([1, SAMPLES]), oldLp))).dataSync()[0]);
    for (let step = 1; step <= STEPS; step++) {
      optimizer.minimize(() => loss(tf.gather(tf.logSoftmax(logits), idx).reshape([1, SAMPLES]) as tf.Tensor2D, oldLp, adv, mask));
      points.push([step, drift()]);
    }
    const reward = tf.tidy(() => tf.sum(tf.mul(tf.softmax(logits), REWARDS)).dataSync()[0]);
    console.log(`  ${name.padEnd(16)}${[10, 30, 60].map((s) => points[s - 1][1].toFixed(3)).join(" / ").padStart(40)}${reward.toFixed(3).padStart(18)}`);
    tf.dispose([logits, idx, oldLp, adv, mask]);
    optimizer.dispose();
    return { name, points };
  });
  console.log("  A hard clip stops a token's gradient at 1 ± ε; a soft gate fades it, sooner for a larger τ.\n");
  const file = join(ctx.outDir, "bandit-drift.svg");
  writeFileSync(file, lineChart({ title: "Drift from the sampling policy on one batch", xLabel: "SGD step", yLabel: "mean |log r|", series }));
  console.log(`  Wrote ${ctx.show(file)}`);
}

const lab: Lab = async (ctx) => {
  console.log("Lab 32: what GSPO and SAPO change\n");
  ({ sapoLoss, sequenceLevelRatio } = await labFunctions<Functions>(ctx, HOMES));
  gradientWeights(ctx);
  sequenceRatioSpread(ctx);
  banditDrift(ctx);
};

export default lab;
