/**
 * Lesson 34 — Normalisation and micro-batching. Cases for normalize (normalize.ts),
 * rejectionSampling (rejection.ts) and splitMicroBatches (microbatch.ts): the lesson's worked
 * examples, AReaL's own test vectors, edge cases, seeded random batches, and fixtures computed from
 * AReaL's lines (grader/lesson-34/parity.py). globalTokenMean (token-mean.ts): the worked example,
 * empty micro-batches, uneven ranks, seeded random steps and fixtures from the engine's weighting.
 */
import * as tf from "../../lib/tf.js";
import { fixtureCases } from "../engine/fixtures.js";
import { normal2d, prefixMask, raggedLengths, uniform2d } from "../engine/generators.js";
import { Rng } from "../../lib/random.js";
import { throwsCall } from "../engine/throws.js";
import { ELEMENTWISE, EXACT, LONG_REDUCTION } from "../engine/types.js";
import type { CaseDef, CaseKind, Inputs, LessonGrader, Tolerance } from "../engine/types.js";

const LESSON = "lesson-34";

/** Sums over 512+ tokens: the looser tolerance of DESIGN.md. */
const fixtureTolerance = (name: string): Tolerance | undefined => (name.includes("512") ? LONG_REDUCTION : undefined);

// ----- normalize -------------------------------------------------------------------------------

/** A normalize case: x and its options (the mask, when given, goes inside the options). */
function normCase(name: string, kind: CaseKind, build: () => { x: tf.Tensor; options: Record<string, unknown> }, tolerance?: Tolerance): CaseDef {
  return { name, kind, inputs: build, tolerance };
}

/** A seeded [B, T] batch of normals with a ragged prefix mask (rows of length 0 when minLen is 0). */
function normBatch(seed: number, B: number, T: number, options: Record<string, unknown>, minLen = 1) {
  const rng = new Rng(seed);
  const x = normal2d(rng, B, T, 0.3, 1.5);
  return { x, options: { ...options, mask: prefixMask(raggedLengths(rng, B, T, minLen), T) } };
}

/** GRPO-style rewards: B = groups · size, one 0/1 reward per sample plus a little noise. */
function groupRewards(seed: number, groups: number, size: number) {
  const rng = new Rng(seed);
  const r = Array.from({ length: groups * size }, () => (rng.next() < 0.5 ? 1 : 0) + rng.normal(0, 0.1));
  return tf.tensor1d(r);
}

/** AReaL's test vector: tests/test_adv_norm_config.py:1107-1177 (leave-one-out with a mask). */
const arealLeaveOneOut = () => ({
  x: tf.tensor2d([[1, 2], [3, 4], [5, 6]]),
  options: { meanLevel: "batch", stdLevel: "batch", leaveOneOut: true, unbiased: true, mask: tf.tensor2d([[1, 1], [1, 0], [0, 1]]) },
});

const normalizeCases: CaseDef[] = [
  normCase("worked example 1: AReaL's leave-one-out vector, batch mean and unbiased std, masked", "worked", arealLeaveOneOut),
  normCase("worked example 2: GRPO rewards, 3 groups of 4, group mean and std", "worked", () => ({
    x: tf.tensor1d([1, 0, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1]),
    options: { meanLevel: "group", stdLevel: "group", groupSize: 4 },
  })),
  normCase("every element masked: x comes back unchanged", "edge", () => ({
    x: tf.tensor2d([[1.5, -2], [0.25, 4]]),
    options: { leaveOneOut: true, mask: tf.zeros([2, 2]) },
  })),
  normCase("one valid element, leave-one-out: mean 0 and std 1 (tests/test_adv_norm_config.py:785-805)", "edge", () => ({
    x: tf.tensor2d([[1, 2], [3, 4], [5, 6]]),
    options: { leaveOneOut: true, unbiased: true, mask: tf.tensor2d([[1, 0], [0, 0], [0, 0]]) },
  })),
  normCase("equal values: zero variance divides by eps alone", "edge", () => ({ x: tf.fill([4, 2], 5), options: {} })),
  normCase("groups of 1: leave-one-out mean 0 and unbiased std 1 per row", "edge", () => ({
    x: tf.tensor2d([[1, 3], [-2, 0.5], [4, 4]]),
    options: { meanLevel: "group", stdLevel: "group", groupSize: 1, leaveOneOut: true, unbiased: true },
  })),
  normCase("no std level: eps is dropped too (eps = 0.5)", "edge", () => ({
    x: tf.tensor2d([[2, -1, 0.5], [3, 1, -4]]),
    options: { meanLevel: "batch", stdLevel: "none", eps: 0.5 },
  })),
  normCase("a large eps is added to the std, not to the variance (eps = 0.1)", "edge", () => ({
    x: tf.tensor1d([0.1, 0.3, -0.2, 0.05]),
    options: { unbiased: false, eps: 0.1 },
  })),
  { name: "no options at all: every NormConfig default, no mask", kind: "edge", inputs: () => ({ x: tf.tensor2d([[0.5, -1.2, 2.0], [0.1, 0.9, -0.4]]) }) },
  normCase("rewards far from 0 (1000 + 0, 0.5, 1, 0.25): deviations from the mean, not Σx² − nμ²", "edge", () => ({
    x: tf.tensor1d([1000, 1000.5, 1001, 1000.25]),
    options: { meanLevel: "group", stdLevel: "group", groupSize: 2 },
  })),
  normCase("B=5 in groups of 2: the fifth row belongs to no group (mean 0, std 0: divided by eps alone)", "edge", () => ({
    x: tf.tensor2d([[1, 0], [0.5, 2], [3, 1], [1, 1], [0.25, -0.5]]),
    options: { meanLevel: "group", stdLevel: "group", groupSize: 2, eps: 0.5 },
  })),
  normCase("random: AReaL defaults, ragged mask (seed 41, B=6 T=9)", "random", () => normBatch(41, 6, 9, {})),
  normCase("random: group leave-one-out mean, biased group std, groups of 3 (seed 42, B=9 T=5)", "random", () =>
    normBatch(42, 9, 5, { meanLevel: "group", stdLevel: "group", groupSize: 3, leaveOneOut: true, unbiased: false }, 0),
  ),
  normCase("random: batch mean, group std of rewards, groups of 5 (seed 43, B=20)", "random", () => ({
    x: groupRewards(43, 4, 5),
    options: { meanLevel: "batch", stdLevel: "group", groupSize: 5 },
  })),
  normCase("random: no mean, batch std, leave-one-out ignored (seed 44, B=5 T=7)", "random", () =>
    normBatch(44, 5, 7, { meanLevel: "none", stdLevel: "batch", leaveOneOut: true }),
  ),
  normCase("random: long rows, AReaL defaults (seed 45, B=4 T=512)", "random", () => normBatch(45, 4, 512, {}), LONG_REDUCTION),
  ...fixtureCases(LESSON, "normalize", fixtureTolerance),
];

// ----- rejectionSampling -------------------------------------------------------------------------

/** The lesson's worked batch (B=2, T=4): row 1's last token is padding. */
function workedLogprobs() {
  return {
    proximalLogprobs: tf.tensor2d([[-0.9, -1.0, -1.4, -1.5], [-0.7, -1.3, -2.0, 0.0]]),
    oldLogprobs: tf.tensor2d([[-1.0, -2.0, -0.5, -1.5], [-0.8, -1.2, -3.0, -0.4]]),
    lossMask: tf.tensor2d([[1, 1, 1, 1], [1, 1, 1, 0]]),
  };
}

/** A seeded batch: behaviour log-probs in [−3, 0), the proximal policy drifted by N(0, drift²). */
function driftBatch(seed: number, B: number, T: number, drift: number, minLen = 1) {
  const rng = new Rng(seed);
  const oldLogprobs = uniform2d(rng, B, T, -3, 0);
  const noise = normal2d(rng, B, T, 0, drift);
  const proximalLogprobs = tf.add(oldLogprobs, noise) as tf.Tensor2D;
  noise.dispose();
  return { proximalLogprobs, oldLogprobs, lossMask: prefixMask(raggedLengths(rng, B, T, minLen), T) };
}

function rsCase(name: string, kind: CaseKind, batch: () => Inputs, config: Record<string, unknown>, tolerance?: Tolerance): CaseDef {
  return { name, kind, inputs: () => ({ ...batch(), config }), tolerance };
}

const rejectionCases: CaseDef[] = [
  rsCase("worked example 1: token level, keep ratios in [0.5, 2]", "worked", workedLogprobs, { level: "token", action: "mask", lower: 0.5, upper: 2 }),
  rsCase("worked example 2: sequence level, geometric-mean ratio clamped at 1.2", "worked", workedLogprobs, {
    level: "sequence",
    action: "clamp",
    metric: "ratio",
    agg: "mean",
    upper: 1.2,
  }),
  rsCase("AReaL's test vector: exp(1) > 2 is rejected (tests/test_rejection_sampling.py:47-66)", "edge", () => ({
    proximalLogprobs: tf.tensor2d([[0, 1, 0]]),
    oldLogprobs: tf.zeros([1, 3]),
    lossMask: tf.ones([1, 3]),
  }), { upper: 2 }),
  rsCase("a -inf behaviour log-prob gives a finite weight (δ set to 0)", "edge", () => ({
    proximalLogprobs: tf.tensor2d([[-0.5, -1.0, -0.2]]),
    oldLogprobs: tf.tensor2d([[-0.6, -Infinity, -0.9]]),
    lossMask: tf.ones([1, 3]),
  }), { upper: 2 }),
  {
    name: "no config at all: AReaL's defaults (token level, mask, ratio ≤ 5)",
    kind: "edge",
    inputs: () => ({
      proximalLogprobs: tf.tensor2d([[-0.2, -0.1, -1.0, -0.3], [-0.5, -2.5, -0.4, -0.6]]),
      oldLogprobs: tf.tensor2d([[-1.3, -2.2, -1.1, -0.2], [-0.5, -0.3, -1.9, -0.6]]),
      lossMask: tf.tensor2d([[1, 1, 1, 1], [1, 1, 1, 0]]),
    }),
  },
  rsCase("a −Inf behaviour log-prob under a KL metric: the raw log-ratio gives KL +Inf and the token is rejected", "edge", () => ({
    proximalLogprobs: tf.tensor2d([[-0.5, -1.0, -0.2]]),
    oldLogprobs: tf.tensor2d([[-0.6, -Infinity, -0.9]]),
    lossMask: tf.ones([1, 3]),
  }), { metric: "kl_k3", upper: 0.5 }),
  rsCase("decimal bounds met exactly in float32: k1 = ±0.1 (stored as ±0.100000001) is inside [−0.1, 0.1]", "edge", () => ({
    proximalLogprobs: tf.tensor2d([[0, -0.1, 0, -0.3, -0.2]]),
    oldLogprobs: tf.tensor2d([[-0.1, 0, -0.2, 0, -0.25]]),
    lossMask: tf.ones([1, 5]),
  }), { metric: "kl_k1", lower: -0.1, upper: 0.1 }),
  rsCase("sequence level max with an all-masked row: that row counts as in bounds", "edge", () => driftBatch(51, 4, 6, 0.5, 0), {
    level: "sequence",
    metric: "kl_k2",
    agg: "max",
    upper: 0.1,
  }),
  rsCase("a single token, clamped from above", "edge", () => ({
    proximalLogprobs: tf.tensor2d([[-0.2]]),
    oldLogprobs: tf.tensor2d([[-1.5]]),
    lossMask: tf.ones([1, 1]),
  }), { action: "clamp", upper: 2 }),
  rsCase("random: token level, ratio in [0.6, 1.6], mask (seed 52, B=5 T=8)", "random", () => driftBatch(52, 5, 8, 0.5), { lower: 0.6, upper: 1.6 }),
  rsCase("random: token level clamp to [0.8, 1.25] (seed 53, B=4 T=9)", "random", () => driftBatch(53, 4, 9, 0.4), { action: "clamp", lower: 0.8, upper: 1.25 }),
  rsCase("random: sequence level, geometric mean ≤ 1.1, mask (seed 54, B=8 T=6)", "random", () => driftBatch(54, 8, 6, 0.4, 0), {
    level: "sequence",
    upper: 1.1,
  }),
  rsCase("random: sequence level, k3 sum ≤ 0.3, mask (seed 55, B=6 T=7)", "random", () => driftBatch(55, 6, 7, 0.4), {
    level: "sequence",
    metric: "kl_k3",
    agg: "sum",
    upper: 0.3,
  }),
  rsCase("random: token level, k3 ≤ 0.02, mask (seed 56, B=4 T=8)", "random", () => driftBatch(56, 4, 8, 0.3), { metric: "kl_k3", upper: 0.02 }),
  rsCase("random: long rows, sequence level mean ratio ≤ 1.02 (seed 57, B=3 T=512)", "random", () => driftBatch(57, 3, 512, 0.3), {
    level: "sequence",
    upper: 1.02,
  }, LONG_REDUCTION),
  ...fixtureCases(LESSON, "rejectionSampling", fixtureTolerance),
];

// ----- splitMicroBatches -----------------------------------------------------------------------------

/** The groups as int32 tensors, so they compare exactly and print as numbers; anything else as is. */
function groupsAsTensors(out: unknown): unknown {
  const isGroups = Array.isArray(out) && out.every((g) => Array.isArray(g) && g.every((i) => Number.isInteger(i)));
  return isGroups ? (out as number[][]).map((g) => tf.tensor1d(g, "int32")) : out;
}

/** splitMicroBatches(seqLens, nMbs[, maxTokensPerMb]): the budget is left out when a case has none, so its default is graded. */
const callMicroBatches = (fn: (...args: unknown[]) => unknown, x: Inputs) =>
  groupsAsTensors(x.maxTokensPerMb === undefined ? fn(x.seqLens, x.nMbs) : fn(x.seqLens, x.nMbs, x.maxTokensPerMb));

function mbCase(name: string, kind: CaseKind, seqLens: () => number[], nMbs: number, maxTokensPerMb?: number): CaseDef {
  return { name, kind, inputs: () => ({ seqLens: seqLens(), nMbs, maxTokensPerMb }) };
}

/** n seeded lengths in [lo, hi]. */
function seededLens(seed: number, n: number, lo: number, hi: number): number[] {
  const rng = new Rng(seed);
  return Array.from({ length: n }, () => rng.int(lo, hi));
}

const WORKED_LENS = () => [5, 9, 3, 7, 4, 6];

const microBatchCases: CaseDef[] = [
  mbCase("worked example 1: 6 sequences into 2 micro-batches", "worked", WORKED_LENS, 2),
  mbCase("worked example 2: the same sequences, at most 12 tokens each", "worked", WORKED_LENS, 2, 12),
  mbCase("as many micro-batches as sequences", "edge", () => [8, 3, 8, 1], 4),
  mbCase("a single sequence", "edge", () => [42], 1),
  mbCase("equal lengths: ties go in index order", "edge", () => [5, 4, 4, 1], 3),
  mbCase("a micro-batch may be filled exactly to the budget", "edge", () => [6, 4, 6, 4], 1, 10),
  mbCase("a sequence of exactly the budget is allowed (a micro-batch of its own)", "edge", () => [10, 3, 7], 1, 10),
  {
    name: "a sequence longer than maxTokensPerMb is refused",
    kind: "edge",
    inputs: () => ({ seqLens: [4, 11, 3], nMbs: 1, maxTokensPerMb: 10 }),
    call: throwsCall(callMicroBatches),
    checks: "that a sequence over the budget throws",
  },
  {
    name: "fewer sequences than nMbs is refused",
    kind: "edge",
    inputs: () => ({ seqLens: [5, 9, 3], nMbs: 4 }),
    call: throwsCall(callMicroBatches),
    checks: "that 3 sequences cannot fill 4 micro-batches",
  },
  mbCase("random: 40 sequences with repeated lengths, 4 micro-batches (seed 61)", "random", () => seededLens(61, 40, 1, 12), 4),
  mbCase("random: 30 sequences, budget 1500 tokens, at least 2 (seed 62)", "random", () => seededLens(62, 30, 50, 600), 2, 1500),
  mbCase("random: 512 sequences, 8 micro-batches (seed 63)", "random", () => seededLens(63, 512, 1, 4096), 8),
  ...fixtureCases(LESSON, "splitMicroBatches"),
];

// ---------------------------------------------------------------- globalTokenMean

/** The result as tensors: loss a scalar, scales one float32 row per rank; anything else as it came. */
function tokenMeanAsTensors(out: unknown): unknown {
  const r = out as { loss?: unknown; scales?: unknown };
  if (r === null || typeof r !== "object" || typeof r.loss !== "number" || !Array.isArray(r.scales)) return out;
  return { loss: tf.scalar(r.loss), scales: (r.scales as number[][]).map((row) => tf.tensor1d(row, "float32")) };
}

const tmCase = (name: string, kind: CaseKind, sums: number[][], counts: number[][]): CaseDef => ({
  name,
  kind,
  inputs: () => ({ microBatchLossSums: sums, microBatchTokenCounts: counts }),
});

/** A seeded step: `ranks` ranks of `mbs` micro-batches with 0…maxLen valid tokens, per-token losses ~ N(0.5, 1). */
function randomStep(seed: number, ranks: number, mbs: number, maxLen: number): Inputs {
  const rng = new Rng(seed);
  const counts = Array.from({ length: ranks }, () => Array.from({ length: mbs }, () => rng.int(0, maxLen)));
  if (counts.flat().every((n) => n === 0)) counts[0][0] = 1;
  const sums = counts.map((row) => row.map((n) => rng.normals(n, 0.5, 1).reduce((a, x) => a + x, 0)));
  return { microBatchLossSums: sums, microBatchTokenCounts: counts };
}

const tokenMeanCases: CaseDef[] = [
  tmCase("worked example: two ranks, micro-batches of 2, 6 and 4 tokens", "worked", [[1.0, 1.2], [2.0]], [[2, 6], [4]]),
  tmCase("one rank, one micro-batch: its own token-mean, scale 1", "edge", [[3.0]], [[4]]),
  tmCase("an empty micro-batch adds nothing and gets scale 0", "edge", [[1.0, 0], [2.0, 0.5]], [[2, 0], [4, 1]]),
  tmCase("a rank with no valid token still counts as a rank", "edge", [[3.0, 1.0], [0]], [[5, 3], [0]]),
  tmCase("short micro-batches with large per-token losses", "edge", [[8.0, 1.0, 1.0]], [[2, 50, 50]]),
  { name: "no valid token anywhere is refused", kind: "edge", inputs: () => ({ microBatchLossSums: [[0, 0]], microBatchTokenCounts: [[0, 0]] }), call: throwsCall((fn, x) => fn(x.microBatchLossSums, x.microBatchTokenCounts)), checks: "that an all-empty step throws" },
  { name: "shapes that differ are refused", kind: "edge", inputs: () => ({ microBatchLossSums: [[1, 2]], microBatchTokenCounts: [[1, 2], [3]] }), call: throwsCall((fn, x) => fn(x.microBatchLossSums, x.microBatchTokenCounts)), checks: "that mismatched shapes throw" },
  { name: "4 ranks × 4 micro-batches (seed 61)", kind: "random", inputs: () => randomStep(61, 4, 4, 30) },
  { name: "8 ranks × 2 micro-batches, ragged (seed 62)", kind: "random", inputs: () => randomStep(62, 8, 2, 9) },
  { name: "2 ranks × 3 micro-batches of up to 512 tokens (seed 63)", kind: "random", inputs: () => randomStep(63, 2, 3, 512) },
  ...fixtureCases(LESSON, "globalTokenMean"),
];

const grader: LessonGrader = {
  lesson: LESSON,
  exercises: [
    {
      name: "normalize",
      file: "normalize.ts",
      tolerance: ELEMENTWISE,
      call: (fn, x) => (x.options === undefined ? fn(x.x) : fn(x.x, x.options)),
      cases: normalizeCases,
    },
    {
      name: "rejectionSampling",
      file: "rejection.ts",
      tolerance: ELEMENTWISE,
      call: (fn, x) => (x.config === undefined ? fn(x.proximalLogprobs, x.oldLogprobs, x.lossMask) : fn(x.proximalLogprobs, x.oldLogprobs, x.lossMask, x.config)),
      cases: rejectionCases,
    },
    {
      name: "splitMicroBatches",
      file: "microbatch.ts",
      tolerance: EXACT,
      call: callMicroBatches,
      cases: microBatchCases,
    },
    {
      name: "globalTokenMean",
      file: "token-mean.ts",
      tolerance: ELEMENTWISE,
      call: (fn, x) => tokenMeanAsTensors(fn(x.microBatchLossSums, x.microBatchTokenCounts)),
      outputOrder: ["scales", "loss"],
      cases: tokenMeanCases,
    },
  ],
};

export default grader;
