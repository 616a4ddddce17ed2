/**
 * Lab 23: one PPO batch traced end to end on a tiny synthetic rollout (shapes, masks, positions, a
 * GAE table, the three losses and the two diagnostics), and an SVG of the clipped surrogate against
 * the ratio for a positive and a negative advantage. Runs your lesson functions where they pass grading, the reference elsewhere (the lab prints which).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as tf from "../../lib/tf.js";
import { lineChart } from "../../lib/svg.js";
import { Rng } from "../../lib/random.js";
import type * as Ppo from "../../exercises/lesson-23/ppo.js";
import { labFunctions, type Lab } from "../lab.js";

/** The lesson functions this lab runs, through lib/resolver.ts: yours where they pass grading, else the reference. */
const HOMES = { clippedValueLoss: "lesson-23", maskedGae: "lesson-23", ppoPolicyLoss: "lesson-23", referenceKlPenalty: "lesson-23", responseLogpPositions: "lesson-23" };
type Functions = { clippedValueLoss: typeof Ppo.clippedValueLoss; maskedGae: typeof Ppo.maskedGae; ppoPolicyLoss: typeof Ppo.ppoPolicyLoss; referenceKlPenalty: typeof Ppo.referenceKlPenalty; responseLogpPositions: typeof Ppo.responseLogpPositions };
let { clippedValueLoss, maskedGae, ppoPolicyLoss, referenceKlPenalty, responseLogpPositions } = {} as Functions;

const EOS = 2;
const PAD = 0;
const GAMMA = 1;
const LAM = 0.95;
const EPS = 0.2;

/** The synthetic rollout: left-padded prompts of width 5, responses of width 6. */
const PROMPTS = [
  [PAD, PAD, 11, 12, 13],
  [14, 15, 16, 17, 18],
  [PAD, 19, 20, 21, 22],
];
const RESPONSES = [
  [31, 32, EOS, PAD, PAD, PAD],
  [33, 34, 35, 36, 37, 38],
  [EOS, PAD, PAD, PAD, PAD, PAD],
];
const REWARDS = [1.0, -0.5, 0.3];

/** One table row: integers as they are, other numbers with three decimals. */
const row = (xs: ArrayLike<number>, integers = false) => Array.from(xs, (x) => (integers ? String(x) : x.toFixed(3)).padStart(7)).join("");

/** Response length as MiniMind computes it: first EOS + 1, else the non-pad count, at least 1. */
function responseLength(response: number[]): number {
  const eos = response.indexOf(EOS);
  return Math.max(1, eos >= 0 ? eos + 1 : response.filter((t) => t !== PAD).length);
}

function traceBatch(): void {
  const B = RESPONSES.length;
  const P = PROMPTS[0].length;
  const R = RESPONSES[0].length;
  console.log(`Rollout: B=${B} prompts, left-padded to P=${P}; responses right-padded to R=${R} (EOS=${EOS}, pad=${PAD})\n`);
  const lengths = RESPONSES.map(responseLength);
  const maskRows = lengths.map((len) => Array.from({ length: R }, (_, j) => (j < len ? 1 : 0)));
  RESPONSES.forEach((resp, b) => {
    console.log(`row ${b}: prompt [${PROMPTS[b].join(" ")}]  response [${resp.join(" ")}]  length ${lengths[b]}  mask ${maskRows[b].join(" ")}`);
  });

  tf.tidy(() => {
    const positions = responseLogpPositions(tf.tensor1d(Array(B).fill(P), "int32"), R);
    console.log(`\nlogits positions (P − 1 + j), shape [${positions.shape}]:`);
    (positions.arraySync() as number[][]).forEach((r, b) => console.log(`  row ${b}:${row(r, true)}`));

    const mask = tf.tensor2d(maskRows);
    const rewards = tf.buffer([B, R]);
    lengths.forEach((len, b) => rewards.set(REWARDS[b], b, len - 1));
    const tokenRewards = rewards.toTensor() as tf.Tensor2D;
    const values = tf.mul(tf.tensor2d([[0.4, 0.5, 0.7, 0.2, 0.1, 0.0], [0.1, 0.0, -0.2, -0.3, -0.1, -0.4], [0.2, 0.3, 0.1, 0.0, 0.5, 0.1]]), mask) as tf.Tensor2D;
    const { advantages, returns } = maskedGae(tokenRewards, values, mask, GAMMA, LAM);

    const r0 = tokenRewards.arraySync()[0];
    const v0 = values.arraySync()[0];
    const g0 = returns.arraySync()[0];
    const a0 = advantages.arraySync()[0];
    console.log(`\nGAE for row 0 (γ=${GAMMA}, λ=${LAM}), read from t = R−1 down to 0:`);
    console.log(`  ${"t".padEnd(10)}${row(Array.from({ length: R }, (_, t) => t), true)}`);
    console.log(`  ${"reward".padEnd(10)}${row(r0)}`);
    console.log(`  ${"value".padEnd(10)}${row(v0)}`);
    const delta0 = r0.map((r, t) => r + GAMMA * (t < R - 1 ? v0[t + 1] : 0) - v0[t]);
    console.log(`  ${"δ".padEnd(10)}${row(delta0)}`);
    console.log(`  ${"A (raw)".padEnd(10)}${row(g0.map((g, t) => g - v0[t]))}`);
    console.log(`  ${"return".padEnd(10)}${row(g0)}`);
    console.log(`  ${"Â (norm.)".padEnd(10)}${row(a0)}`);

    const oldLogps = tf.tensor2d([[-1.1, -0.6, -0.2, 0, 0, 0], [-2.0, -1.2, -0.9, -0.5, -1.4, -0.8], [-0.3, 0, 0, 0, 0, 0]]);
    const newLogps = tf.add(oldLogps, tf.tensor2d([[0.25, -0.1, 0.05, 0, 0, 0], [-0.3, 0.2, 0.0, 0.4, -0.15, 0.1], [0.1, 0, 0, 0, 0, 0]])) as tf.Tensor2D;
    const refLogps = tf.add(oldLogps, tf.tensor2d([[0.1, 0.1, -0.1, 0, 0, 0], [0.0, -0.2, 0.1, 0.1, 0.0, 0.2], [-0.1, 0, 0, 0, 0, 0]])) as tf.Tensor2D;
    const newValues = tf.add(values, tf.mul(0.3, mask)) as tf.Tensor2D;

    const policy = ppoPolicyLoss(newLogps, oldLogps, advantages, mask, EPS).dataSync()[0];
    const kl = referenceKlPenalty(newLogps, refLogps, mask).dataSync()[0];
    const value = clippedValueLoss(newValues, values, returns, mask, 0.2).dataSync()[0];
    const logRatio = tf.sub(newLogps, oldLogps);
    const count = Math.max(mask.sum().dataSync()[0], 1);
    const approxKl = tf.mul(0.5, tf.square(logRatio)).mul(mask).sum().dataSync()[0] / count;
    const clipFrac = tf.greater(tf.abs(tf.sub(tf.exp(logRatio), 1)), EPS).cast("float32").mul(mask).sum().dataSync()[0] / count;
    console.log("\nOne update on this batch:");
    console.log(`  policy loss        ${policy.toFixed(4)}`);
    console.log(`  reference KL (k3)  ${kl.toFixed(4)}   × kl_coef 0.02`);
    console.log(`  value loss         ${value.toFixed(4)}   × vf_coef 0.5`);
    console.log(`  total              ${(policy + 0.02 * kl + 0.5 * value).toFixed(4)}`);
    console.log(`  approx KL          ${approxKl.toFixed(4)}   (early stop above 0.25: ${approxKl > 0.25 ? "stop" : "continue"})`);
    console.log(`  clip fraction      ${clipFrac.toFixed(4)}   (share of tokens with |ρ − 1| > ${EPS})`);
  });
}

/** The per-token surrogate J(ρ) = −loss for one token with advantage A, from ppoPolicyLoss itself. */
function surrogateCurve(advantage: number): Array<[number, number]> {
  const points: Array<[number, number]> = [];
  for (let ratio = 0.2; ratio <= 2.0001; ratio += 0.02) {
    const loss = tf.tidy(() =>
      ppoPolicyLoss(tf.tensor2d([[Math.log(ratio)]]), tf.tensor2d([[0]]), tf.tensor2d([[advantage]]), tf.tensor2d([[1]]), EPS).dataSync()[0],
    );
    points.push([ratio, -loss]);
  }
  return points;
}

/**
 * k3 checked by numbers, on a 4-token vocabulary: its mean (lesson 23's referenceKlPenalty, all
 * tokens kept) on samples from π_θ estimates KL(π_θ‖π_ref); on samples from another policy (π_old,
 * as in PPO's second pass) it does not. And its gradient, differentiated on fixed samples from π_θ, has
 * the expectation ∇KL(π_ref‖π_θ), not ∇KL(π_θ‖π_ref).
 */
function k3Check(): void {
  const softmax = (z: number[]) => {
    const e = z.map((v) => Math.exp(v - Math.max(...z)));
    const s = e.reduce((a, b) => a + b, 0);
    return e.map((v) => v / s);
  };
  const theta = softmax([1.2, 0.4, -0.3, -1.0]);
  const ref = softmax([0.2, 0.6, 0.1, -0.4]);
  const old = softmax([0.5, 1.0, -0.8, -0.2]);
  const kl = (p: number[], q: number[]) => p.reduce((s, pi, i) => s + pi * Math.log(pi / q[i]), 0);
  const k3 = (i: number) => ref[i] / theta[i] - 1 - Math.log(ref[i] / theta[i]);
  const exactMean = (p: number[]) => p.reduce((s, pi, i) => s + pi * k3(i), 0);
  const N = 20000;
  const sampleMean = (p: number[], seed: number) => {
    const rng = new Rng(seed);
    const draws = Array.from({ length: N }, () => {
      let u = rng.uniform(0, 1);
      const i = p.findIndex((pi) => (u -= pi) < 0);
      return i < 0 ? p.length - 1 : i;
    });
    return tf.tidy(() => {
      const lp = tf.tensor2d([draws.map((i) => Math.log(theta[i]))]);
      const lr = tf.tensor2d([draws.map((i) => Math.log(ref[i]))]);
      return referenceKlPenalty(lp, lr, tf.onesLike(lp) as tf.Tensor2D).dataSync()[0];
    });
  };
  console.log(`\nk3 on a 4-token vocabulary: π_θ, π_ref and an older π_old, ${N} samples each, averaged by`);
  console.log("lesson 23's referenceKlPenalty (yours or the reference, as the table above says):");
  console.log(`  KL(π_θ‖π_ref) = ${kl(theta, ref).toFixed(4)}`);
  console.log(`  k3 over samples from π_θ:   ${sampleMean(theta, 1).toFixed(4)} (exact expectation ${exactMean(theta).toFixed(4)}: unbiased)`);
  console.log(`  k3 over samples from π_old: ${sampleMean(old, 2).toFixed(4)} (exact expectation ${exactMean(old).toFixed(4)}: not KL(π_θ‖π_ref))`);
  // Gradients with respect to π_θ's logits z: ∇_z log π_θ(x) = e_x − π_θ, so E_π_θ[∇k3] = π_θ − π_ref.
  const gradK3 = theta.map((t, j) => t - ref[j]);
  const klTheta = kl(theta, ref);
  const gradForward = theta.map((t, j) => t * (Math.log(t / ref[j]) - klTheta));
  const fmt = (v: number[]) => `[${v.map((x) => x.toFixed(3)).join(", ")}]`;
  console.log(`  z = π_θ's logits: E_π_θ[∇_z k3] = ${fmt(gradK3)} is ∇_z KL(π_ref‖π_θ),`);
  console.log(`  not ∇_z KL(π_θ‖π_ref) = ${fmt(gradForward)}.`);
  console.log("  As a loss on fixed samples, k3 follows the gradient of the KL in the other direction.");
}

const lab: Lab = async (ctx) => {
  console.log("Lab 23: PPO's pieces on one batch\n");
  ({ clippedValueLoss, maskedGae, ppoPolicyLoss, referenceKlPenalty, responseLogpPositions } = await labFunctions<Functions>(ctx, HOMES));
  traceBatch();
  const svg = lineChart({
    title: `PPO clipped surrogate, ε = ${EPS}`,
    xLabel: "ratio ρ = π_new / π_old",
    yLabel: "objective min(ρA, clip(ρ)A)",
    series: [
      { name: "A = +1", points: surrogateCurve(1) },
      { name: "A = −1", points: surrogateCurve(-1) },
      { name: "unclipped ρA, A=+1", points: [[0.2, 0.2], [2, 2]], dashed: true, color: "#9ecae1" },
      { name: "unclipped ρA, A=−1", points: [[0.2, -0.2], [2, -2]], dashed: true, color: "#f4a6a6" },
    ],
    guides: [
      { x: 1 - EPS, label: "1 − ε" },
      { x: 1 + EPS, label: "1 + ε" },
    ],
  });
  const file = join(ctx.outDir, "clipped-surrogate.svg");
  writeFileSync(file, svg);
  console.log(`\nWrote ${ctx.show(file)}: flat beyond 1 + ε for A > 0 and below 1 − ε for A < 0 (no gradient there).`);
  k3Check();
};

export default lab;
