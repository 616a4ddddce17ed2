/**
 * Lesson 31 — M2PO. Cases for m2poMask (exercises/lesson-31/m2po.ts): the lesson's worked example,
 * hand cases at the edges of the rule (nothing valid, one token, a suffix mean exactly at τ, no
 * suffix below τ), seeded heavy-tailed batches, and PyTorch fixtures restating
 * areal/trainer/ppo/actor.py:790-850 @ 4aef98d8 (grader/lesson-31/parity.py).
 */
import * as tf from "../../lib/tf.js";
import { fixtureCases } from "../engine/fixtures.js";
import { prefixMask, raggedLengths, uniform2d } from "../engine/generators.js";
import { Rng } from "../../lib/random.js";
import { EXACT } from "../engine/types.js";
import type { CaseDef, Inputs, LessonGrader } from "../engine/types.js";

const LESSON = "lesson-31";

/** proxLogp, and oldLogp = proxLogp + delta, from rows of numbers; mask rows of 0/1. */
function fromDeltas(prox: number[][], delta: number[][], mask: number[][], m2Threshold: number): Inputs {
  return {
    oldLogp: tf.tensor2d(prox.map((row, b) => row.map((p, t) => p + delta[b][t]))),
    proxLogp: tf.tensor2d(prox),
    lossMask: tf.tensor2d(mask, [mask.length, mask[0].length], "bool"),
    m2Threshold,
  };
}

/** One fully valid row with proxLogp = 0 and oldLogp = the deltas. */
const row = (delta: number[], m2Threshold: number): Inputs => fromDeltas([delta.map(() => 0)], [delta], [delta.map(() => 1)], m2Threshold);

/** The batch of the lesson's worked example (B=2, T=4, τ=0.04; row 1's third token is padding). */
function workedBatch(): Inputs {
  return fromDeltas(
    [[-1.0, -0.8, -2.0, -0.5], [-1.2, -0.6, -1.5, -0.3]],
    [[0.1, -0.5, 0.05, 0.3], [0.02, -0.4, 0.9, -0.15]],
    [[1, 1, 1, 1], [1, 1, 0, 1]],
    0.04,
  );
}

interface Spec {
  B: number;
  T: number;
  /** Share of tokens whose behaviour log-prob is far from the proximal one. */
  outlierRate: number;
  m2Threshold: number;
  minLen?: number;
}

/** Seeded batch: small gaps N(0, 0.1²) with a few outliers N(0, 1); padding gets large gaps too. */
function staleBatch(seed: number, spec: Spec): Inputs {
  const rng = new Rng(seed);
  const { B, T } = spec;
  const proxLogp = uniform2d(rng, B, T, -4, 0);
  const gaps = Float32Array.from({ length: B * T }, () => (rng.next() < spec.outlierRate ? rng.normal(0, 1) : rng.normal(0, 0.1)));
  const oldLogp = tf.tidy(() => tf.add(proxLogp, tf.tensor2d(gaps, [B, T]))) as tf.Tensor2D;
  const lossMask = tf.tidy(() => tf.cast(prefixMask(raggedLengths(rng, B, T, spec.minLen ?? 1), T), "bool")) as tf.Tensor2D;
  return { oldLogp, proxLogp, lossMask, m2Threshold: spec.m2Threshold };
}

const staleCase = (name: string, kind: CaseDef["kind"], seed: number, spec: Spec): CaseDef => ({
  name: `${name} (seed ${seed}, B=${spec.B} T=${spec.T}, τ=${spec.m2Threshold})`,
  kind,
  inputs: () => staleBatch(seed, spec),
});

const grader: LessonGrader = {
  lesson: LESSON,
  exercises: [
    {
      name: "m2poMask",
      file: "m2po.ts",
      tolerance: EXACT,
      call: (fn, x) => fn(x.oldLogp, x.proxLogp, x.lossMask, x.m2Threshold),
      cases: [
        { name: "worked example: τ=0.04 masks the two largest of seven", kind: "worked", inputs: workedBatch },
        {
          name: "no valid token: the all-false mask comes back unchanged, no error",
          kind: "edge",
          inputs: () => fromDeltas([[-1, -2, -3]], [[0.5, 2, -1]], [[0, 0, 0]], 0.04),
        },
        { name: "a single valid token is always kept", kind: "edge", inputs: () => fromDeltas([[-1, -2]], [[3, 0.1]], [[1, 0]], 0.04) },
        {
          name: "a suffix mean exactly at τ is not below it: m2 = 1, 0.5625, 0.0625 with τ=0.3125 keeps one token",
          kind: "edge",
          inputs: () => row([1, -0.75, 0.25], 0.3125),
        },
        { name: "no suffix mean below τ=0: all but the smallest are masked", kind: "edge", inputs: () => row([0.3, -0.2, 0.5, 0.1], 0) },
        {
          name: "tied m2 across the cut: of m2 = 0.25, 0.25, 0.01 with τ=0.15 only the earlier tied token is masked",
          kind: "edge",
          inputs: () => row([0.5, -0.5, 0.1], 0.15),
        },
        { name: "every token already below τ: nothing is masked", kind: "edge", inputs: () => row([0.01, -0.02, 0.03], 0.04) },
        { name: "tokens whose log-probs agree (m2 = 0) are never masked", kind: "edge", inputs: () => row([0, 1.5, 0, -2, 0], 0.04) },
        staleCase("a few outliers among small gaps", "random", 41, { B: 4, T: 12, outlierRate: 0.1, m2Threshold: 0.04 }),
        staleCase("many outliers, ragged rows", "random", 42, { B: 6, T: 16, outlierRate: 0.4, m2Threshold: 0.04, minLen: 0 }),
        staleCase("a tight threshold", "random", 43, { B: 3, T: 20, outlierRate: 0.05, m2Threshold: 0.005 }),
        staleCase("long responses, T=512", "random", 44, { B: 4, T: 512, outlierRate: 0.05, m2Threshold: 0.04 }),
        ...fixtureCases(LESSON, "m2poMask"),
      ],
    },
  ],
};

export default grader;
