/**
 * Lab 34: normalisation, rejection sampling and micro-batching, measured with your
 * functions where they pass grading (the reference elsewhere; the lab prints which). (1) How `unbiased` and `leaveOneOut` rescale GRPO advantages as the group size grows,
 * and why leave-one-out cancels when the std is taken too. (2) How many tokens rejection sampling
 * drops as the behaviour policy drifts, at token and at sequence level. (3) How evenly AReaL's FFD
 * spreads tokens over micro-batches, next to two simpler splits.
 *
 * `npm run lab lesson-34 -- async` runs the AReaL track's capstone instead (labs/areal-async/).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as tf from "../../lib/tf.js";
import { lineChart, type Series } from "../../lib/svg.js";
import { Rng } from "../../lib/random.js";
import type * as Microbatch from "../../exercises/lesson-34/microbatch.js";
import type * as Normalize from "../../exercises/lesson-34/normalize.js";
import type { NormalizeOptions } from "../../exercises/lesson-34/normalize.js";
import type * as Rejection from "../../exercises/lesson-34/rejection.js";
import capstone from "../areal-async/main.js";
import { labFunctions, type Lab, type LabContext } from "../lab.js";

/** The lesson functions this lab runs, through lib/resolver.ts: yours where they pass grading, else the reference. */
const HOMES = { splitMicroBatches: "lesson-34", normalize: "lesson-34", rejectionSampling: "lesson-34" };
type Functions = { splitMicroBatches: typeof Microbatch.splitMicroBatches; normalize: typeof Normalize.normalize; rejectionSampling: typeof Rejection.rejectionSampling };
let { splitMicroBatches, normalize, rejectionSampling } = {} as Functions;

function writeChart(ctx: LabContext, file: string, title: string, xLabel: string, yLabel: string, series: Series[]): void {
  const path = join(ctx.outDir, file);
  writeFileSync(path, lineChart({ title, xLabel, yLabel, series }));
  console.log(`  wrote ${ctx.show(path)}\n`);
}

const row = (cells: Array<string | number>, width = 12) => "  " + cells.map((c) => String(c).padStart(width)).join("");

/** Mean |a/b| over the elements where b ≠ 0. */
function meanRatio(a: tf.Tensor, b: tf.Tensor): number {
  const x = a.dataSync();
  const y = b.dataSync();
  const r = Array.from(y, (v, i) => (v !== 0 ? Math.abs(x[i] / v) : NaN)).filter((v) => !Number.isNaN(v));
  return r.reduce((s, v) => s + v, 0) / r.length;
}

function normalisation(ctx: LabContext): void {
  console.log("Part 1: group-normalised GRPO rewards (64 prompts, seeded 0/1 rewards plus noise)");
  console.log(row(["group size", "biased/unb.", "√(G/(G−1))", "LOO/plain", "G/(G−1)", "LOO+std Δ"]));
  const sizes = [2, 3, 4, 6, 8, 16];
  const biasPts: Array<[number, number]> = [];
  const looPts: Array<[number, number]> = [];
  for (const G of sizes) {
    const rng = new Rng(340 + G);
    const rewards = tf.tensor1d(Array.from({ length: 64 * G }, () => (rng.next() < 0.4 ? 1 : 0) + rng.normal(0, 0.05)));
    const run = (o: NormalizeOptions) => normalize(rewards, { meanLevel: "group", stdLevel: "group", groupSize: G, ...o });
    const [unbiased, biased, plainCentred, looCentred, plainScaled, looScaled] = [
      run({}),
      run({ unbiased: false }),
      run({ stdLevel: "none" }),
      run({ stdLevel: "none", leaveOneOut: true }),
      run({}),
      run({ leaveOneOut: true }),
    ];
    const biasRatio = meanRatio(biased, unbiased);
    const looRatio = meanRatio(looCentred, plainCentred);
    const cancel = tf.tidy(() => tf.max(tf.abs(tf.sub(looScaled, plainScaled))).dataSync()[0]);
    console.log(row([G, biasRatio.toFixed(4), Math.sqrt(G / (G - 1)).toFixed(4), looRatio.toFixed(4), (G / (G - 1)).toFixed(4), cancel.toExponential(1)]));
    biasPts.push([G, biasRatio]);
    looPts.push([G, looRatio]);
    tf.dispose([rewards, unbiased, biased, plainCentred, looCentred, plainScaled, looScaled]);
  }
  console.log("  A biased std inflates every advantage by √(G/(G−1)); leave-one-out stretches centred rewards by");
  console.log("  G/(G−1), and taking the std as well divides that stretch away (the last column is what eps leaves).");
  console.log("  Both matter most for small groups.");
  writeChart(ctx, "normalisation-scale.svg", "How much the choice rescales GRPO advantages", "group size G", "mean |variant / reference|", [
    { name: "biased / unbiased std", points: biasPts },
    { name: "LOO / plain, no std", points: looPts },
  ]);
}

function rejection(ctx: LabContext): void {
  console.log("Part 2: share of tokens rejected, keep π_prox/π_behave in [0.5, 2] (64 rows × 64 tokens)");
  console.log("  log-ratio per token = row offset + token noise, both N(0, σ²)");
  console.log(row(["σ", "token", "sequence", "seq k2≤0.1"]));
  const drifts = [0.05, 0.1, 0.2, 0.3, 0.45, 0.6, 0.8, 1.0];
  const series: Series[] = [
    { name: "token level", points: [] },
    { name: "sequence, geo. mean", points: [] },
    { name: "sequence, k2 ≤ 0.1", points: [] },
  ];
  for (const sigma of drifts) {
    const rng = new Rng(3400 + Math.round(sigma * 100));
    const [B, T] = [64, 64];
    const offsets = Array.from({ length: B }, () => rng.normal(0, sigma));
    const behave = tf.tensor2d(rng.uniforms(B * T, -3, 0), [B, T]);
    const proximal = tf.tidy(() => tf.add(behave, tf.tensor2d(Array.from({ length: B * T }, (_, i) => offsets[Math.floor(i / T)] + rng.normal(0, sigma)), [B, T])));
    const mask = tf.ones([B, T]) as tf.Tensor2D;
    const share = (config: Parameters<typeof rejectionSampling>[3]) => {
      const r = rejectionSampling(proximal as tf.Tensor2D, behave, mask, config);
      tf.dispose([r.lossMask, r.behaveImpWeight]);
      return r.filteredFraction;
    };
    const values = [
      share({ lower: 0.5, upper: 2 }),
      share({ level: "sequence", lower: 0.5, upper: 2 }),
      share({ level: "sequence", metric: "kl_k2", upper: 0.1 }),
    ];
    values.forEach((v, i) => (series[i].points as Array<[number, number]>).push([sigma, v]));
    console.log(row([sigma, ...values.map((v) => v.toFixed(3))]));
    tf.dispose([behave, proximal, mask]);
  }
  console.log("  Token-level rejection reacts to every noisy token; the sequence-level geometric mean averages the");
  console.log("  token noise away and reacts to rows that drifted as a whole. k2 is pooled arithmetically, so the");
  console.log("  noise does not cancel: it measures the spread of the log-ratio (mean k2 ≈ σ² here), not the net drift.");
  writeChart(ctx, "rejection-vs-drift.svg", "Tokens dropped by rejection sampling", "drift σ of log π_prox − log π_behave", "rejected share", series);
}

/** Token count of each group. */
const loads = (groups: number[][], lens: number[]) => groups.map((g) => g.reduce((s, i) => s + lens[i], 0));

/** Consecutive chunks of (nearly) equal sequence counts, in batch order. */
function contiguous(lens: number[], k: number): number[][] {
  const size = Math.ceil(lens.length / k);
  return Array.from({ length: k }, (_, g) => lens.map((_, i) => i).slice(g * size, (g + 1) * size));
}

/** Longest first, each into the group with the fewest tokens (LPT): balances tokens, not counts. */
function fewestTokens(lens: number[], k: number): number[][] {
  const groups: number[][] = Array.from({ length: k }, () => []);
  const sums = new Array<number>(k).fill(0);
  for (const i of lens.map((_, j) => j).sort((a, b) => lens[b] - lens[a] || a - b)) {
    const g = sums.indexOf(Math.min(...sums));
    groups[g].push(i);
    sums[g] += lens[i];
  }
  return groups;
}

function microBatches(ctx: LabContext): void {
  const rng = new Rng(34);
  const lens = Array.from({ length: 64 }, () => Math.min(8192, Math.round(Math.exp(rng.normal(6.5, 0.8)))));
  console.log(`Part 3: 64 sequences of ${Math.min(...lens)}-${Math.max(...lens)} tokens (log-normal), largest micro-batch / mean`);
  console.log(row(["micro-batches", "AReaL FFD", "contiguous", "fewest tokens", "FFD counts"], 15));
  const series: Series[] = [
    { name: "AReaL FFD", points: [] },
    { name: "contiguous chunks", points: [] },
    { name: "fewest tokens (LPT)", points: [] },
  ];
  for (const k of [2, 4, 8, 16]) {
    const splits = [splitMicroBatches(lens, k), contiguous(lens, k), fewestTokens(lens, k)];
    const ratios = splits.map((g) => {
      const l = loads(g, lens);
      return Math.max(...l) / (l.reduce((s, x) => s + x, 0) / l.length);
    });
    ratios.forEach((r, i) => (series[i].points as Array<[number, number]>).push([k, r]));
    const counts = splits[0].map((g) => g.length);
    console.log(row([k, ...ratios.map((r) => r.toFixed(3)), `${Math.min(...counts)}-${Math.max(...counts)}`], 15));
  }
  console.log("  AReaL's rule keeps the sequence counts equal and, because the longest go first, the tokens close to");
  console.log("  even; a plain greedy on tokens balances tokens a little better but lets the counts drift apart.");
  writeChart(ctx, "microbatch-balance.svg", "Token balance across micro-batches", "number of micro-batches", "largest / mean tokens", series);
}

const lab: Lab = async (ctx) => {
  if (ctx.args[0] === "async") return capstone(ctx);
  console.log("Lab 34: normalisation, rejection sampling and micro-batching\n");
  ({ splitMicroBatches, normalize, rejectionSampling } = await labFunctions<Functions>(ctx, HOMES));
  normalisation(ctx);
  rejection(ctx);
  microBatches(ctx);
  console.log("Run `npm run lab lesson-34 -- async` for the AReaL track capstone.");
};

export default lab;
