/**
 * Lesson 24 — GRPO and CISPO. Cases for the five functions of exercises/lesson-24/grpo.ts: the
 * lesson's worked example, edge cases, seeded random batches, and PyTorch fixtures computed from
 * MiniMind's own lines (grader/lesson-24/parity.py). The two losses are graded on their gradient
 * with respect to the policy log-probs as well as on their value: CISPO's detached weight changes
 * only the gradient.
 */
import * as tf from "../../lib/tf.js";
import { gradientCall } from "../engine/gradients.js";
import { fixtureCases } from "../engine/fixtures.js";
import { normal2d, prefixMask, raggedLengths, uniform2d } from "../engine/generators.js";
import { Rng } from "../../lib/random.js";
import { ELEMENTWISE, EXACT, LONG_REDUCTION } from "../engine/types.js";
import type { AnyFn, CaseDef, Inputs, LessonGrader, Tolerance } from "../engine/types.js";

const LESSON = "lesson-24";
const EOS = 2;
const PAD = 0;

/** Rows of 512 positions sum long rows: the looser tolerance of DESIGN.md. */
const fixtureTolerance = (name: string): Tolerance | undefined => (name.includes("R=512") ? LONG_REDUCTION : undefined);

type Call = (fn: AnyFn, x: Inputs) => unknown;

const callGrpo: Call = (fn, x) => fn(x.policyLogps, x.oldLogps, x.refLogps, x.advantages, x.completionMask, x.epsilon, x.beta);
const callCispo: Call = (fn, x) => fn(x.policyLogps, x.oldLogps, x.refLogps, x.advantages, x.completionMask, x.epsilonHigh, x.beta);

/** d loss / d policyLogps, everything else held fixed. */
const gradientOf = (call: Call): Call => gradientCall(call, "policyLogps");

const GRADIENT = "the gradient of the loss with respect to policyLogps";

/** The same case graded on its gradient instead of its value. */
const asGradient = (c: CaseDef, call: Call): CaseDef => ({ ...c, name: `gradient: ${c.name}`, call: gradientOf(call), checks: GRADIENT });

/** A loss's value cases, the same cases graded on the gradient, and the fixtures (values and gradients). */
function lossCases(exercise: string, call: Call, valueCases: CaseDef[]): CaseDef[] {
  return [
    ...valueCases,
    ...valueCases.map((c) => asGradient(c, call)),
    ...fixtureCases(LESSON, exercise, fixtureTolerance),
    ...fixtureCases(LESSON, `${exercise}.gradient`, fixtureTolerance).map((c) => asGradient(c, call)),
  ];
}

// ---- the worked example of lessons/24-grpo-and-cispo.md ----

/** Two prompts, three answers each; the second group's answers all scored −0.5. */
const workedRewards = () => ({ rewards: tf.tensor1d([1.0, 0.0, 0.5, -0.5, -0.5, -0.5]), numGenerations: 3 });

/** The first group's three completions (R = 4), as the torch rollout engine returns them. */
const workedCompletions = () => ({
  completionIds: tf.tensor2d([[5, 9, EOS, PAD], [7, 3, 8, 6], [EOS, PAD, PAD, PAD]], undefined, "int32"),
  padMask: tf.ones([3, 4], "int32"),
  eosTokenId: EOS,
});

/** The first group's log-probs, its advantages (rounded to 4 decimals) and its completion mask. */
function workedLogps(): Inputs {
  return {
    oldLogps: tf.tensor2d([[-1.0, -2.0, -0.5, -3.0], [-0.7, -1.2, -2.5, -0.9], [-0.3, -1.0, -1.5, -2.0]]),
    policyLogps: tf.tensor2d([[-0.6, -0.2, -0.5, -3.0], [-0.8, -0.9, -2.5, -0.4], [-0.2, -1.0, -1.5, -2.0]]),
    refLogps: tf.tensor2d([[-0.8, -1.0, -0.6, -2.5], [-0.7, -1.1, -2.4, -1.0], [-0.3, -1.1, -1.4, -2.2]]),
    advantages: tf.tensor1d([1.2244, -1.2244, 0]),
    completionMask: tf.tensor2d([[1, 1, 1, 0], [1, 1, 1, 1], [1, 0, 0, 0]], undefined, "int32"),
  };
}

// ---- seeded batches ----

/**
 * A seeded batch of B completions of R tokens: old log-probs in [−3, 0), the policy and the
 * reference perturbations of them, one advantage per row, and a prefix mask (a length of 0 makes
 * an empty row). `maskDtype` float32 or int32: both must work.
 */
function randomBatch(seed: number, B: number, R: number, opts: { logRatioStd?: number; minLen?: number; maskDtype?: "float32" | "int32" } = {}): Inputs {
  const rng = new Rng(seed);
  const oldLogps = uniform2d(rng, B, R, -3, 0);
  const shift = (std: number) => tf.tidy(() => tf.add(oldLogps, normal2d(rng, B, R, 0, std))) as tf.Tensor2D;
  const policyLogps = shift(opts.logRatioStd ?? 0.3);
  const refLogps = shift(0.3);
  const advantages = tf.tensor1d(rng.normals(B));
  const mask = prefixMask(raggedLengths(rng, B, R, opts.minLen ?? 1), R);
  const completionMask = opts.maskDtype === "int32" ? tf.tidy(() => tf.cast(mask, "int32")) : mask;
  if (completionMask !== mask) mask.dispose();
  return { oldLogps, policyLogps, refLogps, advantages, completionMask };
}

interface LossOpts {
  logRatioStd?: number;
  minLen?: number;
  maskDtype?: "float32" | "int32";
  tolerance?: Tolerance;
}

const lossCase = (name: string, kind: CaseDef["kind"], seed: number, B: number, R: number, extra: Inputs, opts: LossOpts = {}): CaseDef => ({
  name: `${name} (seed ${seed}, B=${B} R=${R})`,
  kind,
  inputs: () => ({ ...randomBatch(seed, B, R, opts), ...extra }),
  tolerance: opts.tolerance,
});

/** The worked log-probs with one change: a zero-variance group, i.e. every advantage 0. */
const zeroAdvantageCase = (extra: Inputs): CaseDef => ({
  name: "a zero-variance group: every advantage is 0 and only the KL term is left",
  kind: "edge",
  inputs: () => {
    const x = workedLogps();
    (x.advantages as tf.Tensor).dispose();
    return { ...x, advantages: tf.zeros([3]), ...extra };
  },
});

/** The worked log-probs moved below −100 (all three by the same −105): ratios and KL unchanged, exp of each log-prob underflows. */
const deepLogpsCase = (extra: Inputs): CaseDef => ({
  name: "log-probs below −100 (the worked batch shifted by −105): the ratio from a difference, never exp(p) / exp(o)",
  kind: "edge",
  inputs: () => {
    const x = workedLogps();
    const shift = (t: unknown) => tf.tidy(() => tf.sub(t as tf.Tensor, 105));
    const out = { ...x, oldLogps: shift(x.oldLogps), policyLogps: shift(x.policyLogps), refLogps: shift(x.refLogps), ...extra };
    tf.dispose([x.oldLogps as tf.Tensor, x.policyLogps as tf.Tensor, x.refLogps as tf.Tensor]);
    return out;
  },
});

/** Random rewards for N groups of G, at a scale. */
const rewardsCase = (name: string, kind: CaseDef["kind"], seed: number, N: number, G: number, scale = 1): CaseDef => ({
  name: `${name} (seed ${seed}, N=${N} G=${G})`,
  kind,
  inputs: () => ({ rewards: tf.tensor1d(new Rng(seed).normals(N * G, 0, scale)), numGenerations: G }),
});

/**
 * Seeded completions: per row an EOS somewhere (or none), a padded tail after it (or a pad mask of
 * ones, as the torch engine returns), other ids in [3, 50), and EOS ids inside the padding.
 */
function randomCompletions(seed: number, B: number, R: number): Inputs {
  const rng = new Rng(seed);
  const ids = new Int32Array(B * R);
  const pad = new Int32Array(B * R).fill(1);
  for (let b = 0; b < B; b++) {
    const row = b * R;
    for (let j = 0; j < R; j++) ids[row + j] = rng.int(3, 49);
    const eos = b % 3 === 2 ? -1 : rng.int(0, R - 1); // every third row has no EOS
    if (eos >= 0) ids[row + eos] = EOS;
    if (eos >= 0 && eos + 1 < R) ids[row + rng.int(eos + 1, R - 1)] = EOS; // a later EOS must not matter
    if (b % 2 === 1) {
      const realLen = eos >= 0 ? eos + 1 : rng.int(1, R);
      for (let j = realLen; j < R; j++) {
        pad[row + j] = 0;
        ids[row + j] = rng.next() < 0.5 ? PAD : EOS; // padding, some of it with the EOS id
      }
    }
  }
  return { completionIds: tf.tensor2d(ids, [B, R], "int32"), padMask: tf.tensor2d(pad, [B, R], "int32"), eosTokenId: EOS };
}

const completionsCase = (name: string, rows: number[][], pads: number[][]): CaseDef => ({
  name,
  kind: "edge",
  inputs: () => ({ completionIds: tf.tensor2d(rows, undefined, "int32"), padMask: tf.tensor2d(pads, undefined, "int32"), eosTokenId: EOS }),
});

const klCase = (name: string, kind: CaseDef["kind"], seed: number, B: number, R: number, std: number, tolerance?: Tolerance): CaseDef => ({
  name: `${name} (seed ${seed}, B=${B} R=${R})`,
  kind,
  inputs: () => {
    const x = randomBatch(seed, B, R, { logRatioStd: std });
    tf.dispose([x.oldLogps as tf.Tensor, x.advantages as tf.Tensor, x.completionMask as tf.Tensor]);
    return { policyLogps: x.policyLogps, refLogps: x.refLogps };
  },
  tolerance,
});

const GRPO = { epsilon: 0.2, beta: 0.1 };
const CISPO = { epsilonHigh: 5.0, beta: 0.1 };

const grpoValueCases: CaseDef[] = [
  { name: "worked example (ε = 0.2, β = 0.1)", kind: "worked", inputs: () => ({ ...workedLogps(), ...GRPO }) },
  lossCase("ratios far from 1: clipping on both sides", "random", 41, 6, 10, GRPO, { logRatioStd: 0.6 }),
  lossCase("ratios near 1, a float32 mask, ε = 0.3, β = 0.04", "random", 42, 4, 8, { epsilon: 0.3, beta: 0.04 }, { logRatioStd: 0.05 }),
  lossCase("long completions, R=512", "random", 43, 4, 512, GRPO, { logRatioStd: 0.4, maskDtype: "int32", tolerance: LONG_REDUCTION }),
  lossCase("rows with no counted token count as 0 in the batch mean", "edge", 44, 5, 6, GRPO, { minLen: 0, logRatioStd: 0.5 }),
  lossCase("a single token", "edge", 45, 1, 1, GRPO, { logRatioStd: 0.5 }),
  lossCase("β = 0: the clipped surrogate alone", "edge", 46, 3, 5, { epsilon: 0.2, beta: 0 }, { logRatioStd: 0.6 }),
  zeroAdvantageCase(GRPO),
  deepLogpsCase(GRPO),
];

const cispoValueCases: CaseDef[] = [
  { name: "worked example (ε_high = 5, β = 0.1)", kind: "worked", inputs: () => ({ ...workedLogps(), ...CISPO }) },
  lossCase("ratios above ε_high = 5 are truncated", "random", 51, 6, 10, CISPO, { logRatioStd: 1.2 }),
  lossCase("a tight cap, ε_high = 1.5", "random", 52, 6, 10, { epsilonHigh: 1.5, beta: 0.04 }, { logRatioStd: 0.6 }),
  lossCase("long completions, R=512", "random", 53, 4, 512, CISPO, { logRatioStd: 0.8, maskDtype: "int32", tolerance: LONG_REDUCTION }),
  lossCase("rows with no counted token count as 0 in the batch mean", "edge", 54, 5, 6, CISPO, { minLen: 0, logRatioStd: 0.8 }),
  lossCase("a single token", "edge", 55, 1, 1, CISPO, { logRatioStd: 0.5 }),
  zeroAdvantageCase(CISPO),
  deepLogpsCase(CISPO),
];

const grader: LessonGrader = {
  lesson: LESSON,
  exercises: [
    {
      name: "groupRelativeAdvantages",
      file: "grpo.ts",
      tolerance: ELEMENTWISE,
      // `eps` is optional: most cases leave it out (the default must be MiniMind's 1e-4), one gives it.
      call: (fn, x) => (x.eps === undefined ? fn(x.rewards, x.numGenerations) : fn(x.rewards, x.numGenerations, x.eps)),
      cases: [
        { name: "worked example: 2 prompts × 3 answers, the second group all equal", kind: "worked", inputs: workedRewards },
        rewardsCase("64 groups of 8", "random", 21, 64, 8),
        rewardsCase("rewards on a large scale", "random", 22, 4, 6, 25),
        rewardsCase("one group", "edge", 23, 1, 8),
        rewardsCase("G = 1: every answer is its own group, so every advantage is 0", "edge", 24, 5, 1),
        {
          name: "two answers per prompt, one group tied: ±1 (almost) and 0",
          kind: "edge",
          inputs: () => ({ rewards: tf.tensor1d([2, -1, 0.25, 0.25]), numGenerations: 2 }),
        },
        {
          name: "eps given (0.5): σ + eps in the denominator, ±0.75",
          kind: "edge",
          inputs: () => ({ rewards: tf.tensor1d([2, -1, 0.25, 0.25]), numGenerations: 2, eps: 0.5 }),
        },
        {
          name: "rewards near 1000 (1000, 1000.5, 1001): the variance keeps the spread in float32",
          kind: "edge",
          inputs: () => ({ rewards: tf.tensor1d([1000, 1000.5, 1001, -3, 2, 7.5]), numGenerations: 3 }),
        },
        {
          name: "a tied group of 0.1: 0 (to float32 rounding of its mean), not NaN",
          kind: "edge",
          inputs: () => ({ rewards: tf.tensor1d([0.1, 0.1, 0.1, 0.4, 0.2, 0.3]), numGenerations: 3 }),
          // The mean of three float32 0.1s rounds by a few 1e-9, which the 1e-4 eps turns into ~1e-4: not a mistake.
          tolerance: { rtol: 1e-5, atol: 2e-4 },
        },
        ...fixtureCases(LESSON, "groupRelativeAdvantages"),
      ],
    },
    {
      name: "grpoCompletionMask",
      file: "grpo.ts",
      tolerance: EXACT,
      call: (fn, x) => fn(x.completionIds, x.padMask, x.eosTokenId),
      cases: [
        { name: "worked example: an EOS at 2, no EOS, an EOS at 0", kind: "worked", inputs: workedCompletions },
        completionsCase("padding before the EOS, some of it holding the EOS id", [[EOS, EOS, 5, 6, EOS, 7], [5, PAD, PAD, EOS, 7, PAD]], [[0, 0, 1, 1, 1, 1], [1, 0, 0, 1, 1, 0]]),
        completionsCase("two EOS tokens: the first one ends the answer", [[5, EOS, 6, EOS, 8, 9]], [[1, 1, 1, 1, 1, 1]]),
        completionsCase("no EOS and a padded tail", [[5, 6, 7, PAD, PAD, PAD]], [[1, 1, 1, 0, 0, 0]]),
        completionsCase("a row that is all padding keeps nothing", [[PAD, PAD, PAD], [5, EOS, PAD]], [[0, 0, 0], [1, 1, 0]]),
        completionsCase("one position: an EOS, a token, padding", [[EOS], [7], [PAD]], [[1], [1], [0]]),
        { name: "16 rows, R=512 (seed 31)", kind: "random", inputs: () => randomCompletions(31, 16, 512) },
        { name: "9 short rows (seed 32, R=7)", kind: "random", inputs: () => randomCompletions(32, 9, 7) },
        ...fixtureCases(LESSON, "grpoCompletionMask"),
      ],
    },
    {
      name: "tokenKlPenalty",
      file: "grpo.ts",
      tolerance: ELEMENTWISE,
      call: (fn, x) => fn(x.policyLogps, x.refLogps),
      cases: [
        {
          name: "worked example",
          kind: "worked",
          inputs: () => {
            const x = workedLogps();
            tf.dispose([x.oldLogps as tf.Tensor, x.advantages as tf.Tensor, x.completionMask as tf.Tensor]);
            return { policyLogps: x.policyLogps, refLogps: x.refLogps };
          },
        },
        klCase("policy near the reference", "random", 61, 4, 9, 0.3),
        klCase("long completions, R=512", "random", 62, 8, 512, 0.3),
        { name: "policy equal to the reference: 0 everywhere", kind: "edge", inputs: () => ({ policyLogps: tf.tensor2d([[-1, -2.5, -0.1]]), refLogps: tf.tensor2d([[-1, -2.5, -0.1]]) }) },
        { name: "large gaps of both signs (δ = ±4)", kind: "edge", inputs: () => ({ policyLogps: tf.tensor2d([[-5, -1], [-0.5, -4.5]]), refLogps: tf.tensor2d([[-1, -5], [-4.5, -0.5]]) }) },
        {
          name: "log-probs below −100: e^δ from the difference, never exp(ref) / exp(policy)",
          kind: "edge",
          inputs: () => ({ policyLogps: tf.tensor2d([[-105, -104.5, -120], [-130, -110.25, -3]]), refLogps: tf.tensor2d([[-104.8, -105.5, -119], [-131, -110.25, -106]]) }),
        },
        ...fixtureCases(LESSON, "tokenKlPenalty", fixtureTolerance),
      ],
    },
    { name: "grpoPolicyLoss", file: "grpo.ts", tolerance: ELEMENTWISE, call: callGrpo, cases: lossCases("grpoPolicyLoss", callGrpo, grpoValueCases) },
    { name: "cispoPolicyLoss", file: "grpo.ts", tolerance: ELEMENTWISE, call: callCispo, cases: lossCases("cispoPolicyLoss", callCispo, cispoValueCases) },
  ],
};

export default grader;
