/**
 * Lesson 23 — PPO, end to end. Cases for the five functions of exercises/lesson-23/ppo.ts:
 * the lesson's worked example, edge cases, seeded random batches, and PyTorch fixtures computed
 * from MiniMind's own lines (grader/lesson-23/parity.py).
 */
import * as tf from "../../lib/tf.js";
import { fixtureCases } from "../engine/fixtures.js";
import { gradientCall } from "../engine/gradients.js";
import { maskRowProbe } from "../engine/probes.js";
import { lastTokenValues, normal2d, prefixMask, raggedLengths, uniform2d } from "../engine/generators.js";
import { Rng } from "../../lib/random.js";
import { ELEMENTWISE, EXACT, LONG_REDUCTION } from "../engine/types.js";
import type { AnyFn, CaseDef, Inputs, LessonGrader, Tolerance } from "../engine/types.js";

const LESSON = "lesson-23";

/** Long responses sum and recurse over 512+ positions: the looser tolerance of DESIGN.md. */
const fixtureTolerance = (name: string): Tolerance | undefined => (name.includes("R=512") ? LONG_REDUCTION : undefined);

/** The batch of the lesson's worked example (B=2, R=4); see lessons/23-ppo-training-flow.md. */
function workedBatch() {
  const mask = tf.tensor2d([[1, 1, 1, 0], [1, 1, 1, 1]]);
  return {
    promptLens: tf.tensor1d([3, 5], "int32"),
    tokenRewards: tf.tensor2d([[0, 0, 1, 0], [0, 0, 0, -0.5]]),
    values: tf.tensor2d([[0.5, 0.4, 0.6, 0], [0.2, -0.1, 0.3, 0.1]]),
    mask,
    oldLogps: tf.tensor2d([[-1.2, -0.7, -2.0, 0], [-0.9, -1.5, -0.3, -2.2]]),
    newLogps: tf.tensor2d([[-1.0, -0.9, -1.6, 0], [-0.9, -1.1, -0.4, -2.6]]),
    refLogps: tf.tensor2d([[-1.1, -0.8, -1.9, 0], [-1.0, -1.3, -0.3, -2.4]]),
    newValues: tf.tensor2d([[0.9, 0.3, 0.55, 0], [0.25, 0.2, -0.1, 0.4]]),
    advantages: tf.tensor2d([[1.0727, 1.3123, 0.978, 0], [-0.9073, -0.3808, -1.1953, -0.8796]]),
    returns: tf.tensor2d([[0.951, 0.98, 1.0, 0], [-0.414925, -0.4315, -0.47, -0.5]]),
  };
}

/** Parameter name → the batch field passed as it. */
type Fields = Record<string, string>;

/** Picks a function's inputs out of a batch (by parameter name) and disposes the rest. */
function pick(batch: Record<string, tf.Tensor>, fields: Fields, extra: Inputs = {}): Inputs {
  const out: Inputs = { ...extra };
  for (const [param, field] of Object.entries(fields)) out[param] = batch[field];
  const used = new Set(Object.values(fields));
  for (const [field, t] of Object.entries(batch)) if (!used.has(field)) t.dispose();
  return out;
}

/** A seeded PPO batch with ragged masks; lengths of 0 make all-masked rows. */
function randomBatch(seed: number, B: number, R: number, opts: { minLen?: number; logRatioStd?: number } = {}) {
  const rng = new Rng(seed);
  const lengths = raggedLengths(rng, B, R, opts.minLen ?? 1);
  const rewards = lengths.map(() => rng.normal());
  const oldLogps = uniform2d(rng, B, R, -3, 0);
  const std = opts.logRatioStd ?? 0.3;
  return {
    tokenRewards: lastTokenValues(lengths, rewards, R),
    values: normal2d(rng, B, R),
    mask: prefixMask(lengths, R),
    oldLogps,
    newLogps: tf.tidy(() => tf.add(oldLogps, normal2d(rng, B, R, 0, std))) as tf.Tensor2D,
    refLogps: tf.tidy(() => tf.add(oldLogps, normal2d(rng, B, R, 0, std))) as tf.Tensor2D,
    newValues: normal2d(rng, B, R),
    advantages: normal2d(rng, B, R),
    returns: normal2d(rng, B, R),
  };
}

/** A case whose mask keeps nothing: the masked mean must be 0, not NaN. */
const allMaskedCase = (keys: Fields, extra: Inputs, name = "every token masked: the loss is 0, not NaN"): CaseDef => ({
  name,
  kind: "edge",
  inputs: () => {
    const b = randomBatch(9, 2, 3);
    b.mask.dispose();
    return pick({ ...b, mask: tf.zeros([2, 3]) }, keys, extra);
  },
});

/** A seeded batch whose mask has holes (a 0 between kept tokens, a row starting with 0). */
const holedMaskCase = (keys: Fields, extra: Inputs, name: string): CaseDef => ({
  name,
  kind: "edge",
  inputs: () => {
    const b = randomBatch(17, 2, 5);
    b.mask.dispose();
    return pick({ ...b, mask: tf.tensor2d([[1, 0, 1, 1, 0], [0, 1, 1, 0, 1]]) }, keys, extra);
  },
});

/** The worked batch with every log-prob moved below −100 (by the same −105): ratios unchanged, exp of each underflows. */
const deepLogpsCase = (keys: Fields, extra: Inputs): CaseDef => ({
  name: "log-probs below −100 (the worked batch shifted by −105): the ratio from a difference",
  kind: "edge",
  inputs: () => {
    const b = workedBatch();
    for (const k of ["oldLogps", "newLogps", "refLogps"] as const) {
      const shifted = tf.tidy(() => tf.sub(b[k], 105)) as tf.Tensor2D;
      b[k].dispose();
      b[k] = shifted;
    }
    return pick(b, keys, extra);
  },
});

/** A random case graded on the loss's gradient with respect to one input. */
const gradientCase = (c: CaseDef, call: (fn: AnyFn, x: Inputs) => unknown, wrt: string): CaseDef => ({
  ...c,
  name: `gradient w.r.t. ${wrt}: ${c.name}`,
  call: gradientCall(call, wrt),
  checks: `the gradient of the loss with respect to ${wrt}`,
});

const callPolicy = (fn: AnyFn, x: Inputs) => fn(x.newLogps, x.oldLogps, x.advantages, x.mask, x.clipEpsilon);
const callValue = (fn: AnyFn, x: Inputs) => fn(x.values, x.oldValues, x.returns, x.mask, x.cliprangeValue);

function describeBatch(seed: number, B: number, R: number): string {
  return `seed ${seed}, B=${B} R=${R}`;
}

const gaeCase = (name: string, kind: CaseDef["kind"], seed: number, B: number, R: number, gamma: number, lam: number, minLen = 1, tolerance?: Tolerance): CaseDef => ({
  name: `${name} (${describeBatch(seed, B, R)}, γ=${gamma} λ=${lam})`,
  kind,
  inputs: () => pick(randomBatch(seed, B, R, { minLen }), GAE, { gamma, lam }),
  tolerance,
});

const lossCase = (
  name: string,
  kind: CaseDef["kind"],
  keys: Fields,
  seed: number,
  B: number,
  R: number,
  extra: Inputs,
  opts: { minLen?: number; logRatioStd?: number; tolerance?: Tolerance } = {},
): CaseDef => ({
  name: `${name} (${describeBatch(seed, B, R)})`,
  kind,
  inputs: () => pick(randomBatch(seed, B, R, opts), keys, extra),
  tolerance: opts.tolerance,
});

const GAE: Fields = { tokenRewards: "tokenRewards", values: "values", mask: "mask" };
const POLICY: Fields = { newLogps: "newLogps", oldLogps: "oldLogps", advantages: "advantages", mask: "mask" };
const KL: Fields = { policyLogps: "newLogps", refLogps: "refLogps", mask: "mask" };
const VALUE: Fields = { values: "newValues", oldValues: "values", returns: "returns", mask: "mask" };

const grader: LessonGrader = {
  lesson: LESSON,
  exercises: [
    {
      name: "responseLogpPositions",
      file: "ppo.ts",
      tolerance: EXACT,
      call: (fn, x) => fn(x.promptLens, x.responseLen),
      cases: [
        { name: "worked example: prompts of 3 and 5 tokens, R=4", kind: "worked", inputs: () => ({ promptLens: tf.tensor1d([3, 5], "int32"), responseLen: 4 }) },
        { name: "a one-token prompt starts at position 0", kind: "edge", inputs: () => ({ promptLens: tf.tensor1d([1], "int32"), responseLen: 3 }) },
        { name: "a single response token", kind: "edge", inputs: () => ({ promptLens: tf.tensor1d([7, 2], "int32"), responseLen: 1 }) },
        {
          name: "8 rows of different prompt lengths, R=512 (seed 5)",
          kind: "random",
          inputs: () => {
            const rng = new Rng(5);
            return { promptLens: tf.tensor1d(Array.from({ length: 8 }, () => rng.int(1, 300)), "int32"), responseLen: 512 };
          },
        },
        ...fixtureCases(LESSON, "responseLogpPositions"),
      ],
    },
    {
      name: "maskedGae",
      file: "ppo.ts",
      tolerance: ELEMENTWISE,
      call: (fn, x) => fn(x.tokenRewards, x.values, x.mask, x.gamma, x.lam),
      cases: [
        { name: "worked example (γ=1, λ=0.95)", kind: "worked", inputs: () => pick(workedBatch(), GAE, { gamma: 1, lam: 0.95 }) },
        gaeCase("ragged mask, γ≠1", "random", 11, 3, 7, 0.9, 0.95),
        gaeCase("ragged mask, λ=1 (Monte-Carlo returns)", "random", 12, 4, 6, 0.8, 1),
        gaeCase("all-masked rows among full ones", "edge", 13, 4, 5, 0.95, 0.9, 0),
        allMaskedCase(GAE, { gamma: 0.9, lam: 0.8 }, "every token masked: advantages are all zero, returns still A + V (γ=0.9 λ=0.8)"),
        gaeCase("a single token", "edge", 15, 1, 1, 0.99, 0.95),
        holedMaskCase(GAE, { gamma: 0.9, lam: 0.95 }, "a mask with holes: each position weighted by its own entry (seed 17, B=2 R=5, γ=0.9 λ=0.95)"),
        gaeCase("long responses, R=512", "random", 16, 4, 512, 0.99, 0.95, 1, LONG_REDUCTION),
        ...fixtureCases(LESSON, "maskedGae", fixtureTolerance),
      ],
    },
    {
      name: "ppoPolicyLoss",
      file: "ppo.ts",
      tolerance: ELEMENTWISE,
      probe: maskRowProbe(),
      call: callPolicy,
      cases: [
        {
          name: "worked example (ε=0.2)",
          kind: "worked",
          inputs: () => pick(workedBatch(), POLICY, { clipEpsilon: 0.2 }),
        },
        lossCase("ratios far from 1, both advantage signs, ε=0.2", "random", POLICY, 21, 4, 8, { clipEpsilon: 0.2 }, { logRatioStd: 0.6 }),
        lossCase("ratios near 1 (no clipping), ε=0.3", "random", POLICY, 22, 3, 6, { clipEpsilon: 0.3 }, { logRatioStd: 0.02 }),
        lossCase("all-masked rows", "edge", POLICY, 23, 4, 5, { clipEpsilon: 0.1 }, { minLen: 0, logRatioStd: 0.5 }),
        allMaskedCase(POLICY, { clipEpsilon: 0.2 }),
        lossCase("a single token", "edge", POLICY, 24, 1, 1, { clipEpsilon: 0.2 }, { logRatioStd: 0.5 }),
        lossCase("long responses, R=512", "random", POLICY, 25, 4, 512, { clipEpsilon: 0.2 }, { logRatioStd: 0.4, tolerance: LONG_REDUCTION }),
        deepLogpsCase(POLICY, { clipEpsilon: 0.2 }),
        gradientCase(lossCase("clipped and unclipped tokens, ε=0.2", "random", POLICY, 26, 3, 5, { clipEpsilon: 0.2 }, { logRatioStd: 0.6 }), callPolicy, "newLogps"),
        ...fixtureCases(LESSON, "ppoPolicyLoss", fixtureTolerance),
      ],
    },
    {
      name: "referenceKlPenalty",
      file: "ppo.ts",
      tolerance: ELEMENTWISE,
      probe: maskRowProbe(),
      call: (fn, x) => fn(x.policyLogps, x.refLogps, x.mask),
      cases: [
        { name: "worked example", kind: "worked", inputs: () => pick(workedBatch(), KL) },
        lossCase("ragged mask", "random", KL, 31, 3, 7, {}, { logRatioStd: 0.5 }),
        lossCase("all-masked rows", "edge", KL, 32, 4, 5, {}, { minLen: 0, logRatioStd: 0.5 }),
        allMaskedCase(KL, {}),
        lossCase("a single token", "edge", KL, 33, 1, 1, {}, { logRatioStd: 0.5 }),
        lossCase("long responses, R=512", "random", KL, 34, 4, 512, {}, { logRatioStd: 0.3, tolerance: LONG_REDUCTION }),
        deepLogpsCase(KL, {}),
        ...fixtureCases(LESSON, "referenceKlPenalty", fixtureTolerance),
      ],
    },
    {
      name: "clippedValueLoss",
      file: "ppo.ts",
      tolerance: ELEMENTWISE,
      probe: maskRowProbe(),
      call: callValue,
      cases: [
        { name: "worked example (c=0.2)", kind: "worked", inputs: () => pick(workedBatch(), VALUE, { cliprangeValue: 0.2 }) },
        lossCase("ragged mask, c=0.2", "random", VALUE, 41, 3, 7, { cliprangeValue: 0.2 }),
        lossCase("wide clip range, c=1.5", "random", VALUE, 42, 4, 6, { cliprangeValue: 1.5 }),
        lossCase("all-masked rows", "edge", VALUE, 43, 4, 5, { cliprangeValue: 0.2 }, { minLen: 0 }),
        allMaskedCase(VALUE, { cliprangeValue: 0.2 }),
        lossCase("a single token", "edge", VALUE, 44, 1, 1, { cliprangeValue: 0.2 }),
        lossCase("long responses, R=512", "random", VALUE, 45, 4, 512, { cliprangeValue: 0.2 }, { tolerance: LONG_REDUCTION }),
        gradientCase(lossCase("clipped and unclipped values, c=0.2", "random", VALUE, 46, 3, 5, { cliprangeValue: 0.2 }), callValue, "values"),
        ...fixtureCases(LESSON, "clippedValueLoss", fixtureTolerance),
      ],
    },
  ],
};

export default grader;
