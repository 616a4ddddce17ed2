/**
 * Lesson 22 — The DPO loss. Cases for the two functions of exercises/lesson-22/dpo.ts: the
 * lesson's worked example, edge cases, seeded random batches, and PyTorch fixtures computed from
 * MiniMind's own lines (grader/lesson-22/parity.py). DPO trains through both functions, so each is
 * graded on its gradient as well as on its value.
 */
import * as tf from "../../lib/tf.js";
import { gradientCall } from "../engine/gradients.js";
import { fixtureCases } from "../engine/fixtures.js";
import { normal2d, prefixMask, uniform2d } from "../engine/generators.js";
import { Rng } from "../../lib/random.js";
import { ELEMENTWISE, LONG_REDUCTION } from "../engine/types.js";
import type { AnyFn, CaseDef, Inputs, LessonGrader, Tolerance } from "../engine/types.js";

const LESSON = "lesson-22";

/** Sequences of 512+ positions sum long rows: the looser tolerance of DESIGN.md. */
const fixtureTolerance = (name: string): Tolerance | undefined => (name.includes("T=512") ? LONG_REDUCTION : undefined);

type Call = (fn: AnyFn, x: Inputs) => unknown;

const callTokenLogProbs: Call = (fn, x) => fn(x.logits, x.labels);
const callDpoLoss: Call = (fn, x) => fn(x.refLogProbs, x.policyLogProbs, x.mask, x.beta);

/** d/d logits of Σ upstream ⊙ tokenLogProbs(logits, labels): what backpropagation sends to the model. */
const tokenLogProbsGradient = gradientCall(callTokenLogProbs, "logits", { upstream: "upstream" });

/** d dpoLoss / d policyLogProbs, with everything else held fixed. */
const dpoLossGradient = gradientCall(callDpoLoss, "policyLogProbs");

const TOKEN_GRADIENT = "the gradient of Σ upstream·logp with respect to the logits";
const DPO_GRADIENT = "the gradient of the loss with respect to the policy log-probs";

/** The same case graded on its gradient instead of its value. */
function asGradient(c: CaseDef, call: Call, checks: string): CaseDef {
  return { ...c, name: `gradient: ${c.name}`, call, checks };
}

/** The fixture cases of `exercise` plus its stored gradients, graded through `gradient`. */
function fixturesWithGradients(exercise: string, gradient: Call, checks: string): CaseDef[] {
  return [...fixtureCases(LESSON, exercise, fixtureTolerance), ...fixtureCases(LESSON, `${exercise}.gradient`, fixtureTolerance).map((c) => asGradient(c, gradient, checks))];
}

/** The worked example of lessons/22-dpo-loss.md: logits for 2 sequences of 2 positions over 3 tokens. */
function workedLogits(): Inputs {
  return {
    logits: tf.tensor3d([[[2, 1, 0], [0, 0, 0]], [[1, 3, 0], [0.5, -0.5, 2]]]),
    labels: tf.tensor2d([[0, 2], [1, 0]], undefined, "int32"),
    upstream: tf.tensor2d([[1, 1], [1, -1]]),
  };
}

/** The worked example's DPO batch: rows 0-1 chosen, rows 2-3 their rejected partners, β = 0.15. */
function workedPairs(): Inputs {
  return {
    policyLogProbs: tf.tensor2d([[-1.0, -0.5, -2.0, -9.0], [-0.7, -1.5, -0.9, -1.1], [-2.2, -1.9, -3.0, -0.4], [-0.8, -1.0, -5.0, -4.0]]),
    refLogProbs: tf.tensor2d([[-1.2, -0.9, -2.1, -7.0], [-0.6, -1.4, -1.0, -1.0], [-1.8, -1.7, -2.6, -0.5], [-1.1, -1.2, -3.0, -5.0]]),
    mask: tf.tensor2d([[1, 1, 1, 0], [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 0, 0]]),
    beta: 0.15,
  };
}

/** Seeded logits, labels and upstream weights. */
function randomLogits(seed: number, B: number, T: number, V: number, scale = 2): Inputs {
  const rng = new Rng(seed);
  return {
    logits: tf.tensor3d(rng.normals(B * T * V, 0, scale), [B, T, V]),
    labels: tf.tensor2d(Int32Array.from({ length: B * T }, () => rng.int(0, V - 1)), [B, T], "int32"),
    upstream: normal2d(rng, B, T),
  };
}

/**
 * A seeded DPO batch of `pairs` pairs: log-probs in [−4, 0), the policy a perturbed reference,
 * ragged response masks (each row keeps a prefix of 1…T positions).
 */
function randomPairs(seed: number, pairs: number, T: number, beta: number, opts: { policyShift?: number } = {}): Inputs {
  const rng = new Rng(seed);
  const B = 2 * pairs;
  const refLogProbs = uniform2d(rng, B, T, -4, 0);
  const noise = normal2d(rng, B, T, opts.policyShift ?? 0, 0.3);
  const policyLogProbs = tf.tidy(() => tf.minimum(tf.add(refLogProbs, noise), 0)) as tf.Tensor2D;
  noise.dispose();
  const lengths = Array.from({ length: B }, () => rng.int(1, T));
  return { refLogProbs, policyLogProbs, mask: prefixMask(lengths, T), beta };
}

const logitsCase = (name: string, kind: CaseDef["kind"], seed: number, B: number, T: number, V: number, scale?: number): CaseDef => ({
  name: `${name} (seed ${seed}, B=${B} T=${T} V=${V})`,
  kind,
  inputs: () => randomLogits(seed, B, T, V, scale),
});

const pairsCase = (name: string, kind: CaseDef["kind"], seed: number, pairs: number, T: number, beta: number, opts: { policyShift?: number; tolerance?: Tolerance } = {}): CaseDef => ({
  name: `${name} (seed ${seed}, ${pairs} pairs, T=${T}, β=${beta})`,
  kind,
  inputs: () => randomPairs(seed, pairs, T, beta, opts),
  tolerance: opts.tolerance,
});

const tokenValueCases: CaseDef[] = [
  { name: "worked example: 2 sequences × 2 positions, 3 tokens", kind: "worked", inputs: workedLogits },
  logitsCase("a batch of short sequences", "random", 1, 4, 8, 16),
  logitsCase("long sequences, T=512", "random", 2, 2, 512, 8),
  logitsCase("one position, one row", "edge", 3, 1, 1, 5),
  {
    name: "equal logits: every log-prob is −log V",
    kind: "edge",
    inputs: () => {
      const x = randomLogits(4, 2, 3, 8);
      (x.logits as tf.Tensor).dispose();
      return { ...x, logits: tf.zeros([2, 3, 8]) };
    },
  },
  logitsCase("huge logits (±300): log-softmax must not overflow", "edge", 5, 2, 4, 6, 300),
];

const dpoValueCases: CaseDef[] = [
  { name: "worked example: 2 pairs, β = 0.15", kind: "worked", inputs: workedPairs },
  pairsCase("a batch of pairs with ragged masks", "random", 11, 4, 12, 0.1),
  pairsCase("the policy already prefers the chosen rows", "random", 12, 3, 10, 0.5, { policyShift: 0.2 }),
  pairsCase("long responses, T=512", "random", 13, 2, 512, 0.1, { tolerance: LONG_REDUCTION }),
  pairsCase("a single pair", "edge", 14, 1, 6, 0.15),
  {
    name: "every token masked: z = 0, so the loss is log 2",
    kind: "edge",
    inputs: () => {
      const x = randomPairs(15, 2, 5, 0.1);
      (x.mask as tf.Tensor).dispose();
      return { ...x, mask: tf.zeros([4, 5]) };
    },
  },
  {
    name: "the policy equal to the reference (DPO's first step): z = 0 on every pair, response tokens counted",
    kind: "edge",
    inputs: () => {
      const x = randomPairs(16, 3, 6, 0.1);
      (x.policyLogProbs as tf.Tensor).dispose();
      return { ...x, policyLogProbs: tf.clone(x.refLogProbs as tf.Tensor) };
    },
  },
  {
    name: "masks as DPODataset makes them: prompt 0s, an answer, a user turn (a hole), a second answer, padding",
    kind: "edge",
    inputs: () => {
      const x = randomPairs(17, 2, 10, 0.2);
      (x.mask as tf.Tensor).dispose();
      const rows = [
        [0, 0, 1, 1, 0, 0, 1, 1, 0, 0],
        [0, 1, 1, 1, 1, 0, 0, 0, 0, 0],
        [0, 0, 1, 0, 0, 1, 1, 1, 1, 0],
        [0, 0, 0, 1, 1, 1, 0, 1, 0, 0],
      ];
      return { ...x, mask: tf.tensor2d(rows) };
    },
  },
  {
    name: "a huge negative margin (β·z = −300): the loss is 300, not Infinity",
    kind: "edge",
    inputs: () => ({
      policyLogProbs: tf.tensor2d([[-200, -102], [-1, -1]]),
      refLogProbs: tf.tensor2d([[-1, -1], [-1, -1]]),
      mask: tf.ones([2, 2]),
      beta: 1,
    }),
  },
];

const grader: LessonGrader = {
  lesson: LESSON,
  exercises: [
    {
      name: "tokenLogProbs",
      file: "dpo.ts",
      tolerance: ELEMENTWISE,
      call: callTokenLogProbs,
      cases: [
        ...tokenValueCases,
        ...tokenValueCases.map((c) => asGradient(c, tokenLogProbsGradient, TOKEN_GRADIENT)),
        ...fixturesWithGradients("tokenLogProbs", tokenLogProbsGradient, TOKEN_GRADIENT),
      ],
    },
    {
      name: "dpoLoss",
      file: "dpo.ts",
      tolerance: ELEMENTWISE,
      call: callDpoLoss,
      cases: [
        ...dpoValueCases,
        ...dpoValueCases.map((c) => asGradient(c, dpoLossGradient, DPO_GRADIENT)),
        ...fixturesWithGradients("dpoLoss", dpoLossGradient, DPO_GRADIENT),
      ],
    },
  ],
};

export default grader;
