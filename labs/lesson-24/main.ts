/**
 * Lab 24: GRPO and CISPO, made visible. (1) One group traced from rewards to advantages, beside a
 * group whose answers all scored alike, and the completion masks of three rollouts. (2) The
 * gradient weight a token receives against its ratio, for GRPO's clip and CISPO's detached cap,
 * read off the two losses with tf.grad (SVG). (3) A bandit trained from a stale sampler, as when
 * MiniMind's SGLang engine refreshes its weights only every few steps: how much signal each loss
 * keeps once ratios leave [1 − ε, 1 + ε]. Runs your lesson functions where they pass grading, the reference elsewhere (the lab prints which).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as tf from "../../lib/tf.js";
import { lineChart } from "../../lib/svg.js";
import { Rng } from "../../lib/random.js";
import type * as Grpo from "../../exercises/lesson-24/grpo.js";
import { labFunctions, type Lab, type LabContext } from "../lab.js";

/** The lesson functions this lab runs, through lib/resolver.ts: yours where they pass grading, else the reference. */
const HOMES = { cispoPolicyLoss: "lesson-24", groupRelativeAdvantages: "lesson-24", grpoCompletionMask: "lesson-24", grpoPolicyLoss: "lesson-24" };
type Functions = { cispoPolicyLoss: typeof Grpo.cispoPolicyLoss; groupRelativeAdvantages: typeof Grpo.groupRelativeAdvantages; grpoCompletionMask: typeof Grpo.grpoCompletionMask; grpoPolicyLoss: typeof Grpo.grpoPolicyLoss };
let { cispoPolicyLoss, groupRelativeAdvantages, grpoCompletionMask, grpoPolicyLoss } = {} as Functions;

const EPS = 0.2;
const EPS_HIGH = 5;
const BETA = 0.1;
const EOS = 2;
const PAD = 0;

const fmt = (xs: ArrayLike<number>, digits = 4) => Array.from(xs, (x) => x.toFixed(digits).padStart(digits + 4)).join("");

function traceGroups(): void {
  const G = 4;
  const rewards = [1.5, 0.25, 0.75, -0.5, 0.5, 0.5, 0.5, 0.5];
  console.log(`Part 1: group-relative advantages, N=2 prompts × G=${G} answers (eps = 1e-4)`);
  const advantages = tf.tidy(() => Array.from(groupRelativeAdvantages(tf.tensor1d(rewards), G).dataSync()));
  for (let g = 0; g < rewards.length / G; g++) {
    const group = rewards.slice(g * G, (g + 1) * G);
    const mean = group.reduce((a, b) => a + b, 0) / G;
    const std = Math.sqrt(group.reduce((a, r) => a + (r - mean) ** 2, 0) / G);
    console.log(`  prompt ${g}: rewards${fmt(group, 2)}   mean ${mean.toFixed(4)}  std ${std.toFixed(4)}`);
    console.log(`            advantages${fmt(advantages.slice(g * G, (g + 1) * G))}`);
  }
  console.log("  Prompt 1's answers all scored 0.5: their advantages are 0, so that group adds nothing but the KL term.\n");

  const ids = [
    [11, 12, EOS, PAD, PAD],
    [13, 14, 15, 16, 17],
    [EOS, PAD, PAD, PAD, PAD],
  ];
  const mask = tf.tidy(() => grpoCompletionMask(tf.tensor2d(ids, undefined, "int32"), tf.ones([3, 5], "int32") as tf.Tensor2D, EOS).arraySync());
  console.log(`  completion masks (EOS = ${EOS}, pad = ${PAD}, pad mask all ones as the torch engine returns it):`);
  ids.forEach((row, b) => console.log(`    ids [${row.join(" ").padEnd(14)}]  mask [${mask[b].join(" ")}]`));
  console.log("  Tokens after the first EOS are dropped; the EOS itself counts; a row without EOS keeps all R tokens.\n");
}

type LossFn = typeof grpoPolicyLoss;

/** w(ρ) = −(∂loss/∂log π)/A for one token with advantage A and β = 0: how hard the token is pushed. */
function gradientWeight(loss: LossFn, bound: number, ratio: number, advantage: number): number {
  return tf.tidy(() => {
    const old = tf.zeros([1, 1]) as tf.Tensor2D;
    const adv = tf.tensor1d([advantage]);
    const mask = tf.ones([1, 1]) as tf.Tensor2D;
    const g = tf.grad((lp: tf.Tensor) => loss(lp as tf.Tensor2D, old, old, adv, mask, bound, 0))(tf.tensor2d([[Math.log(ratio)]]));
    return -g.dataSync()[0] / advantage;
  });
}

function weightCurves(ctx: LabContext): void {
  const ratios = Array.from({ length: 140 }, (_, i) => 0.05 + i * 0.05);
  console.log("Part 2: the gradient weight w(ρ) = −(∂loss/∂log π)/A of one token (β = 0)");
  console.log(`  ${"ρ".padEnd(8)}${"GRPO A>0".padStart(10)}${"GRPO A<0".padStart(10)}${"CISPO".padStart(10)}`);
  for (const r of [0.5, 0.79, 1, 1.19, 1.5, 3, 6]) {
    const row = [gradientWeight(grpoPolicyLoss, EPS, r, 1), gradientWeight(grpoPolicyLoss, EPS, r, -1), gradientWeight(cispoPolicyLoss, EPS_HIGH, r, 1)];
    console.log(`  ${r.toFixed(2).padEnd(8)}${row.map((w) => w.toFixed(3).padStart(10)).join("")}`);
  }
  console.log(`  GRPO drops a token's gradient once its ratio leaves the trust region in the direction A favours;`);
  console.log(`  CISPO keeps every token, with the weight min(ρ, ${EPS_HIGH}) (the same for either sign of A).\n`);
  const svg = lineChart({
    title: `Gradient weight per token (ε = ${EPS}, ε_high = ${EPS_HIGH})`,
    xLabel: "ratio ρ = π_θ / π_old",
    yLabel: "w(ρ) = −(∂loss/∂log π) / A",
    series: [
      { name: "GRPO, A > 0", points: ratios.map((r): [number, number] => [r, gradientWeight(grpoPolicyLoss, EPS, r, 1)]) },
      { name: "GRPO, A < 0", points: ratios.map((r): [number, number] => [r, gradientWeight(grpoPolicyLoss, EPS, r, -1)]), dashed: true },
      { name: "CISPO, any A", points: ratios.map((r): [number, number] => [r, gradientWeight(cispoPolicyLoss, EPS_HIGH, r, 1)]) },
    ],
    guides: [
      { x: 1 - EPS, label: "1 − ε" },
      { x: 1 + EPS, label: "1 + ε" },
      { x: EPS_HIGH, label: "ε_high" },
    ],
  });
  const file = join(ctx.outDir, "gradient-weight-vs-ratio.svg");
  writeFileSync(file, svg);
  console.log(`  Wrote ${ctx.show(file)}\n`);
}

const ARM_REWARDS = [1, 0.2, 0, -0.5, 0.6, -1];
const GROUP = 8;
const STEPS = 60;
const REFRESH = 10;

interface Run {
  name: string;
  reward: Array<[number, number]>;
  silenced: number;
  counted: number;
}

/** One policy trained on groups drawn from a sampler refreshed every REFRESH steps. */
function staleSamplerRun(name: string, loss: LossFn, bound: number): Run {
  const rng = new Rng(24);
  const V = ARM_REWARDS.length;
  const init = tf.tensor1d(rng.normals(V, 0, 0.3));
  const logits = tf.variable(init);
  const refLogProbs = tf.logSoftmax(init);
  let sampler = tf.logSoftmax(init);
  const optimizer = tf.train.sgd(0.5);
  const run: Run = { name, reward: [], silenced: 0, counted: 0 };
  const expectedReward = () => tf.tidy(() => tf.sum(tf.mul(tf.softmax(logits), ARM_REWARDS)).dataSync()[0]);
  for (let step = 0; step < STEPS; step++) {
    if (step % REFRESH === 0) {
      sampler.dispose();
      sampler = tf.tidy(() => tf.logSoftmax(logits));
    }
    run.reward.push([step, expectedReward()]);
    const probs = Array.from(tf.tidy(() => tf.exp(sampler)).dataSync());
    const actions = Array.from({ length: GROUP }, () => {
      let u = rng.next();
      return Math.max(0, probs.findIndex((p) => (u -= p) < 0));
    });
    tf.tidy(() => {
      const idx = tf.tensor1d(actions, "int32");
      const old = tf.gather(sampler, idx).reshape([GROUP, 1]) as tf.Tensor2D;
      const ref = tf.gather(refLogProbs, idx).reshape([GROUP, 1]) as tf.Tensor2D;
      const adv = groupRelativeAdvantages(tf.tensor1d(actions.map((a) => ARM_REWARDS[a])), GROUP);
      const mask = tf.ones([GROUP, 1]) as tf.Tensor2D;
      const policy = () => tf.gather(tf.logSoftmax(logits), idx).reshape([GROUP, 1]) as tf.Tensor2D;
      const ratio = tf.exp(tf.sub(policy(), old)).dataSync();
      const a = adv.dataSync();
      actions.forEach((_, i) => {
        if (a[i] === 0) return;
        run.counted++;
        if ((a[i] > 0 && ratio[i] > 1 + EPS) || (a[i] < 0 && ratio[i] < 1 - EPS)) run.silenced++;
      });
      optimizer.minimize(() => loss(policy(), old, ref, adv, mask, bound, BETA));
    });
  }
  run.reward.push([STEPS, expectedReward()]);
  tf.dispose([init, logits, refLogProbs, sampler]);
  optimizer.dispose();
  return run;
}

function staleSampler(ctx: LabContext): void {
  console.log(`Part 3: a ${ARM_REWARDS.length}-armed bandit, groups of ${GROUP} drawn from a sampler refreshed every ${REFRESH} steps, SGD lr 0.5, β = ${BETA}`);
  const runs = [staleSamplerRun(`GRPO ε=${EPS}`, grpoPolicyLoss, EPS), staleSamplerRun(`CISPO ε_high=${EPS_HIGH}`, cispoPolicyLoss, EPS_HIGH)];
  console.log(`  ${"loss".padEnd(16)}${"expected reward at step 0 / 10 / 30 / 60".padStart(42)}${"tokens outside the trust region".padStart(34)}`);
  for (const r of runs) {
    const at = [0, 10, 30, 60].map((s) => r.reward[s][1].toFixed(3)).join(" / ");
    console.log(`  ${r.name.padEnd(16)}${at.padStart(42)}${`${r.silenced} of ${r.counted}`.padStart(34)}`);
  }
  console.log(`  The best arm pays ${Math.max(...ARM_REWARDS)}. Between refreshes the ratios drift from 1: GRPO gives the tokens outside`);
  console.log("  [1 − ε, 1 + ε] (on the side their advantage favours) no gradient, CISPO still learns from them.");
  const file = join(ctx.outDir, "stale-sampler.svg");
  writeFileSync(file, lineChart({ title: "Bandit trained from a stale sampler", xLabel: "step", yLabel: "expected reward", series: runs.map((r) => ({ name: r.name, points: r.reward })) }));
  console.log(`  Wrote ${ctx.show(file)}`);
}

const lab: Lab = async (ctx) => {
  console.log("Lab 24: GRPO and CISPO\n");
  ({ cispoPolicyLoss, groupRelativeAdvantages, grpoCompletionMask, grpoPolicyLoss } = await labFunctions<Functions>(ctx, HOMES));
  traceGroups();
  weightCurves(ctx);
  staleSampler(ctx);
};

export default lab;
