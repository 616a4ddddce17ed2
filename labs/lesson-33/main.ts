/**
 * Lab 33: AReaL's advantage pipeline on a three-row rollout (a finished answer, a truncated one and
 * a multi-turn one with a tool observation in the middle), traced step by step and set beside
 * lesson 23's MiniMind GAE on the same numbers; plus charts of the three KL estimators and of the
 * overlong penalty. Runs your lesson functions where they pass grading, the reference elsewhere (the lab prints which).
 * `npm run lab lesson-33 -- recipes` rebuilds GRPO and Dr.GRPO from AReaL's knobs instead (recipes.ts).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as tf from "../../lib/tf.js";
import { lineChart } from "../../lib/svg.js";
import type * as Advantages from "../../exercises/lesson-33/advantages.js";
import type * as Ppo from "../../exercises/lesson-23/ppo.js";
import { labFunctions, type Lab } from "../lab.js";
import { recipesLab } from "./recipes.js";

/** The lesson functions this lab runs, through lib/resolver.ts: yours where they pass grading, else the reference. */
const HOMES = { arealAdvantages: "lesson-33", klEstimator: "lesson-33", overlongPenalty: "lesson-33", maskedGae: "lesson-23" };
type Functions = { arealAdvantages: typeof Advantages.arealAdvantages; klEstimator: typeof Advantages.klEstimator; overlongPenalty: typeof Advantages.overlongPenalty; maskedGae: typeof Ppo.maskedGae };
let { arealAdvantages, klEstimator, overlongPenalty, maskedGae } = {} as Functions;

const T = 12;
const GAMMA = 1;
const LAMBDA = 0.95;

/** Each row: prompt length, sequence length, and the loss-mask pattern over the response (1 = generated). */
const ROWS = [
  { name: "finished (EOS)", prompt: 3, seqlen: 9, response: [1, 1, 1, 1, 1, 1] },
  { name: "truncated (no EOS)", prompt: 3, seqlen: T, response: [1, 1, 1, 1, 1, 1, 1, 1, 1] },
  { name: "multi-turn (tool output)", prompt: 2, seqlen: 11, response: [1, 1, 1, 0, 0, 0, 1, 1, 1] },
];
const REWARDS = [1.0, 0.6, -0.8];

const cells = (xs: ArrayLike<number>, from = 0, to = xs.length) => Array.from(xs).slice(from, to).map((x) => x.toFixed(3).padStart(7)).join("");
const flags = (xs: ArrayLike<number | boolean>) => Array.from(xs, (x) => (x ? "      1" : "      ·")).join("");

function rollout() {
  const attention = ROWS.map((r) => Array.from({ length: T }, (_, t) => (t < r.seqlen ? 1 : 0)));
  const loss = ROWS.map((r) => Array.from({ length: T }, (_, t) => (t >= r.prompt && t < r.seqlen ? r.response[t - r.prompt] : 0)));
  const wave = (b: number, t: number, scale: number) => scale * Math.sin(1.3 * t + 2 * b);
  return {
    attentionMask: tf.tensor2d(attention, undefined, "bool") as tf.Tensor2D,
    lossMask: tf.tensor2d(loss, undefined, "bool") as tf.Tensor2D,
    logprobs: tf.tensor2d(loss.map((row, b) => row.map((m, t) => (m ? -0.6 + wave(b, t, 0.4) : 0)))) as tf.Tensor2D,
    refLogp: tf.tensor2d(ROWS.map((_, b) => Array.from({ length: T }, (_, t) => -0.7 + wave(b, t + 1, 0.45)))) as tf.Tensor2D,
    values: tf.tensor2d(ROWS.map((_, b) => Array.from({ length: T }, (_, t) => 0.3 + wave(b, 3 * t, 0.2)))) as tf.Tensor2D,
    rewards: tf.tensor1d(REWARDS),
  };
}

function traceAndCompare(): void {
  tf.tidy(() => {
    const data = rollout();
    const out = arealAdvantages({
      ...data,
      discount: GAMMA,
      gaeLambda: LAMBDA,
      klCtl: 0.1,
      klEstimator: "k1",
      maskNoEosWithZero: false,
      rewardBias: 0,
      rewardScaling: 1,
      rewardClip: 20,
    });
    const tokenMask = data.lossMask.arraySync() as unknown as number[][];
    const rolled = out.lossMask.arraySync() as unknown as number[][];
    const values = data.values.arraySync();
    const tot = out.totRewards.arraySync();
    const adv = out.advantages.arraySync();
    console.log(`AReaL's advantages on a rollout of B=${ROWS.length}, T=${T} (γ=${GAMMA}, λ=${LAMBDA}, kl_ctl 0.1, k1)\n`);
    console.log(`  ${"t".padEnd(18)}${Array.from({ length: T }, (_, t) => String(t).padStart(7)).join("")}`);
    ROWS.forEach((r, b) => {
      console.log(`row ${b}: ${r.name}, reward ${REWARDS[b]}, seqlen ${r.seqlen}${r.seqlen === T ? " = T: bootstraps from V[T − 1]" : ""}`);
      console.log(`  ${"loss mask".padEnd(18)}${flags(tokenMask[b])}`);
      console.log(`  ${"rolled by −1".padEnd(18)}${flags(rolled[b])}`);
      console.log(`  ${"rewards (tot)".padEnd(18)}${cells(tot[b])}`);
      console.log(`  ${"values".padEnd(18)}${cells(values[b])}`);
      console.log(`  ${"advantages".padEnd(18)}${cells(adv[b])}`);
    });

    console.log("\nThe same rewards and values through lesson 23's maskedGae (MiniMind), on the response slice");
    console.log("positions prompt − 1 … seqlen − 2 (MiniMind's logits positions are AReaL's rolled positions):");
    ROWS.forEach((r, b) => {
      const from = r.prompt - 1;
      const to = r.seqlen - 1;
      const R = to - from;
      const slice = (m: number[][]) => [m[b].slice(from, to)];
      const mask = tf.tensor2d(slice(rolled));
      const v = tf.mul(tf.tensor2d(slice(values)), mask) as tf.Tensor2D;
      const mm = maskedGae(tf.tensor2d(slice(tot)), v, mask, GAMMA, LAMBDA);
      const raw = tf.sub(mm.returns, v).dataSync();
      const areal = adv[b].slice(from, to);
      const gap = Math.max(...Array.from(raw, (x, j) => Math.abs(x - areal[j])));
      console.log(`  row ${b} (${r.name}, R=${R}): max |A_AReaL − A_MiniMind| = ${gap.toFixed(4)}`);
      console.log(`    ${"AReaL".padEnd(10)}${cells(areal)}`);
      console.log(`    ${"MiniMind".padEnd(10)}${cells(raw)}`);
    });
    console.log("\n  Row 0 agrees. Row 1 differs because AReaL bootstraps a truncated answer from V[T − 1] and MiniMind");
    console.log("  uses V_R = 0. Row 2 differs because AReaL skips the tool tokens (carrying V and A across them),");
    console.log("  while MiniMind runs its recursion through them with their values zeroed.\n");
  });
}

function charts(ctx: Parameters<Lab>[0]): void {
  const deltas = Array.from({ length: 121 }, (_, i) => -3 + i * 0.05);
  const estimator = (kind: "k1" | "k2" | "k3") =>
    tf.tidy(() => Array.from(klEstimator(tf.tensor1d(deltas), tf.zeros([deltas.length]), kind).dataSync(), (y, i): [number, number] => [deltas[i], y]));
  const klFile = join(ctx.outDir, "kl-estimators.svg");
  writeFileSync(
    klFile,
    lineChart({
      title: "KL estimators per token",
      xLabel: "δ = log p − log p_base",
      yLabel: "estimate",
      series: [
        { name: "k1 = δ", points: estimator("k1") },
        { name: "k2 = δ²/2", points: estimator("k2") },
        { name: "k3 = e^−δ − 1 + δ", points: estimator("k3") },
      ],
    }),
  );
  console.log(`Wrote ${ctx.show(klFile)}: k1 is linear and can be negative; k2 and k3 are ≥ 0, and k3 grows fast for δ < 0.`);

  const lengths = Array.from({ length: 129 }, (_, i) => i);
  const penalty = tf.tidy(() =>
    Array.from(
      overlongPenalty({
        rewards: tf.zeros([lengths.length]),
        lossMask: tf.tensor2d(lengths.map((len) => Array.from({ length: 128 }, (_, t) => (t < len ? 1 : 0))), undefined, "bool"),
        overlongTokens: 32,
        overlongPenaltyFactor: 1,
        maxResponseLength: 128,
      }).dataSync(),
      (y, i): [number, number] => [lengths[i], y],
    ),
  );
  const overlongFile = join(ctx.outDir, "overlong-penalty.svg");
  writeFileSync(
    overlongFile,
    lineChart({
      title: "Overlong penalty (max 128, tail 32, factor 1)",
      xLabel: "response length",
      yLabel: "added to the reward",
      series: [{ name: "penalty", points: penalty }],
      guides: [{ x: 96, label: "max − tail" }],
    }),
  );
  console.log(`Wrote ${ctx.show(overlongFile)}: 0 up to 96 tokens, then a ramp down to −1 at the 128-token limit.`);
}

const lab: Lab = async (ctx) => {
  if (ctx.args[0] === "recipes") return recipesLab(ctx);
  console.log("Lab 33: AReaL's advantages\n");
  ({ arealAdvantages, klEstimator, overlongPenalty, maskedGae } = await labFunctions<Functions>(ctx, HOMES));
  traceAndCompare();
  charts(ctx);
};

export default lab;
