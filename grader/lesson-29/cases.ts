/**
 * Lesson 29 — Decoupled PPO. Cases for decoupledPpoLoss (exercises/lesson-29/decoupled-ppo.ts):
 * the lesson's worked example, AReaL's own hand cases (tests/test_functional.py,
 * tests/test_rejection_sampling.py @ 4aef98d8), seeded stale batches, gradients, and PyTorch
 * fixtures restating areal/utils/functional/functional.py (grader/lesson-29/parity.py).
 */
import * as tf from "../../lib/tf.js";
import { isNotImplemented } from "../../lib/errors.js";
import { fixturesWithGradient, gradientCall } from "../engine/gradients.js";
import { fixtureCases } from "../engine/fixtures.js";
import { normal2d, prefixMask, raggedLengths, uniform2d } from "../engine/generators.js";
import { Rng } from "../../lib/random.js";
import { ELEMENTWISE, LONG_REDUCTION } from "../engine/types.js";
import type { AnyFn, CaseDef, Inputs, LessonGrader, Tolerance } from "../engine/types.js";

const LESSON = "lesson-29";

type Options = Record<string, unknown>;

/** [B, T] bool from rows of 0/1. */
const boolMask = (rows: number[][]) => tf.tidy(() => tf.cast(tf.tensor2d(rows), "bool")) as tf.Tensor2D;

/** The batch of the lesson's worked example (B=2, T=4; the last token of row 1 is padding). */
function workedBatch(extra: Options = {}): Inputs {
  return {
    logprobs: tf.tensor2d([[-1.0, -0.5, -2.0, -1.2], [-0.3, -1.5, -0.2, 0]]),
    proximalLogprobs: tf.tensor2d([[-1.1, -0.9, -1.6, -1.2], [-1.6, -1.4, -0.6, 0]]),
    oldLogprobs: tf.tensor2d([[-1.3, -0.9, -1.9, -2.0], [-1.7, -1.0, -0.7, 0]]),
    advantages: tf.tensor2d([[1.0, 1.0, -0.5, 0.8], [-2.0, 0.5, -1.0, 0]]),
    lossMask: boolMask([[1, 1, 1, 1], [1, 1, 1, 0]]),
    epsClip: 0.2,
    epsClipHigher: 0.28,
    cClip: 3,
    ...extra,
  };
}

interface BatchSpec {
  B: number;
  T: number;
  /** Shortest row; 0 makes all-masked rows. */
  minLen?: number;
  /** Std of log π_prox − log π_behave: how stale the samples are. */
  staleStd?: number;
  /** Std of log π_θ − log π_prox: how far this step has moved. */
  stepStd?: number;
}

/** A seeded batch: behaviour log-probs in [−3, 0), proximal and current ones drifting from them. */
function randomBatch(seed: number, spec: BatchSpec, options: Options): Inputs {
  const rng = new Rng(seed);
  const { B, T } = spec;
  const lengths = raggedLengths(rng, B, T, spec.minLen ?? 1);
  const oldLogprobs = uniform2d(rng, B, T, -3, 0);
  const proximalLogprobs = tf.tidy(() => tf.add(oldLogprobs, normal2d(rng, B, T, 0, spec.staleStd ?? 0.3))) as tf.Tensor2D;
  const logprobs = tf.tidy(() => tf.add(proximalLogprobs, normal2d(rng, B, T, 0, spec.stepStd ?? 0.3))) as tf.Tensor2D;
  const lossMask = tf.tidy(() => tf.cast(prefixMask(lengths, T), "bool")) as tf.Tensor2D;
  return { logprobs, proximalLogprobs, oldLogprobs, advantages: normal2d(rng, B, T), lossMask, epsClip: 0.2, ...options };
}

const describe = (seed: number, s: BatchSpec) => `seed ${seed}, B=${s.B} T=${s.T}`;

const batchCase = (name: string, kind: CaseDef["kind"], seed: number, spec: BatchSpec, options: Options, tolerance?: Tolerance): CaseDef => ({
  name: `${name} (${describe(seed, spec)})`,
  kind,
  inputs: () => randomBatch(seed, spec, options),
  tolerance,
});

/** AReaL's legacy rejection-sampling test vector (tests/test_rejection_sampling.py:378-429), with one action. */
const legacyRejectionVector = (action: "clamp" | "mask"): Inputs => ({
  logprobs: tf.tensor2d([[0.1, 2.2, -0.6]]),
  proximalLogprobs: tf.tensor2d([[0, 2, -0.5]]),
  oldLogprobs: tf.zeros([1, 3]),
  advantages: tf.tensor2d([[1, -1, 0.5]]),
  lossMask: boolMask([[1, 1, 1]]),
  epsClip: 0.2,
  rejectionSampling: { action, upper: 5 },
});

/** Every log-prob of `x` shifted by `by` (float32): rare tokens, whose probabilities underflow when exponentiated. */
function shiftLogprobs(x: Inputs, keys: readonly string[], by: number): Inputs {
  const out: Inputs = { ...x };
  for (const k of keys) {
    const t = x[k] as tf.Tensor;
    out[k] = tf.tidy(() => tf.add(t, by));
    t.dispose();
  }
  return out;
}

/** fround(ln 2): its exp in float32 is exactly 2, so the behaviour weight exp(0 − (−δ)) lands on upper = 2. */
const LN2_F32 = Math.fround(Math.log(2));

/** Grades d loss / d logprobs instead of the values: the loss must stay differentiable. */
const gradientOfLoss = gradientCall((fn, x) => fn(x), "logprobs", { pick: "loss" });

const gradientCase = (name: string, seed: number, spec: BatchSpec, options: Options): CaseDef => ({
  ...batchCase(name, "random", seed, spec, options),
  call: gradientOfLoss,
  checks: "the gradient of the loss with respect to logprobs (tf.grad), not the returned values",
});

/** true when the function refuses the options with an Error (a NotImplementedError still counts as unfinished). */
const throwsOnOptions = (fn: AnyFn, x: Inputs): boolean => {
  try {
    const out = fn(x) as Record<string, tf.Tensor>;
    tf.dispose(Object.values(out));
    return false;
  } catch (err) {
    if (isNotImplemented(err)) throw err;
    return true;
  }
};

// ---------------------------------------------------------------- distillLoss

/** The worked batch of "Joint distillation": 2×3 tokens, the last of row 1 masked out, RL loss 0.4. */
function workedDistill(rlLossWeight?: number, distillLossWeight?: number): Inputs {
  return {
    logprobs: tf.tensor2d([[-1.0, -0.5, -2.0], [-0.3, -1.5, 0]]),
    oldLogp: tf.tensor2d([[-1.2, -0.5, -1.8], [-0.3, -1.0, 0]]),
    teacherLogp: tf.tensor2d([[-0.8, -1.0, -2.5], [-0.5, -1.5, 0]]),
    lossMask: boolMask([[1, 1, 1], [1, 1, 0]]),
    rlLoss: tf.scalar(0.4),
    // An omitted weight is left out of the object, not passed as undefined: the default is graded.
    ...(rlLossWeight === undefined ? {} : { rlLossWeight }),
    ...(distillLossWeight === undefined ? {} : { distillLossWeight }),
  };
}

/** A seeded batch: behaviour log-probs in [−3, 0), the current ones nearby, an unrelated teacher, ragged masks. */
function randomDistill(seed: number, B: number, T: number, rlLossWeight: number, distillLossWeight: number, minLen = 1): Inputs {
  const rng = new Rng(seed);
  const lossMask = prefixMask(raggedLengths(rng, B, T, minLen), T);
  const oldLogp = uniform2d(rng, B, T, -3, 0);
  const logprobs = tf.tidy(() => tf.add(oldLogp, normal2d(rng, B, T, 0, 0.3))) as tf.Tensor2D;
  const teacherLogp = uniform2d(rng, B, T, -3, 0);
  const mask = tf.cast(lossMask, "bool");
  lossMask.dispose();
  return { logprobs, oldLogp, teacherLogp, lossMask: mask, rlLoss: tf.scalar(rng.normals(1, 0, 1)[0]), rlLossWeight, distillLossWeight };
}

const distillCall = (fn: AnyFn, x: Inputs) => fn(x);
const distillGradient = gradientCall(distillCall, "logprobs", { pick: "loss" });
const DISTILL_GRADIENT = "the gradient of the loss with respect to logprobs (the student's log-probs)";

const distillCases: CaseDef[] = [
  { name: "worked example: pure KD (rl_loss_weight 0, distill_loss_weight 0.5)", kind: "worked", inputs: () => workedDistill(0, 0.5) },
  { name: "worked example: KDRL (rl_loss_weight 1, distill_loss_weight 0.5)", kind: "worked", inputs: () => workedDistill(1, 0.5) },
  { name: "gradient of the worked KD loss: it flows through the importance weight only", kind: "edge", inputs: () => workedDistill(0, 0.5), call: distillGradient, checks: DISTILL_GRADIENT },
  { name: "gradient of the worked KDRL loss", kind: "edge", inputs: () => workedDistill(1, 0.5), call: distillGradient, checks: DISTILL_GRADIENT },
  { name: "AReaL's defaults: rl_loss_weight 1, distill_loss_weight 0.005", kind: "edge", inputs: () => workedDistill() },
  { name: "distill_loss_weight 0 is a weight, not a missing one: the loss is the RL loss alone", kind: "edge", inputs: () => workedDistill(1, 0) },
  {
    name: "log-probs near −105 (rare tokens): the worked KD batch shifted by −105",
    kind: "edge",
    inputs: () => shiftLogprobs(workedDistill(0, 0.5), ["logprobs", "oldLogp", "teacherLogp"], -105),
  },
  { name: "every token masked: KD loss 0, not NaN", kind: "edge", inputs: () => ({ ...workedDistill(0, 0.5), lossMask: tf.zeros([2, 3], "bool") }) },
  { name: "a student equal to its teacher: KDRL adds nothing to the RL loss", kind: "edge", inputs: () => ({ ...workedDistill(2, 0.5), teacherLogp: tf.tensor2d([[-1.0, -0.5, -2.0], [-0.3, -1.5, 0]]) }) },
  { name: "KD, ragged masks (seed 31, B=4 T=9)", kind: "random", inputs: () => randomDistill(31, 4, 9, 0, 0.1, 0) },
  { name: "KDRL (seed 32, B=3 T=12, weights 0.7 and 0.2)", kind: "random", inputs: () => randomDistill(32, 3, 12, 0.7, 0.2) },
  { name: "gradient, KD (seed 33, B=3 T=7)", kind: "random", inputs: () => randomDistill(33, 3, 7, 0, 1), call: distillGradient, checks: DISTILL_GRADIENT },
  { name: "gradient, KDRL (seed 34, B=3 T=7)", kind: "random", inputs: () => randomDistill(34, 3, 7, 1, 1), call: distillGradient, checks: DISTILL_GRADIENT },
  { name: "long responses, T=512 (seed 35)", kind: "random", inputs: () => randomDistill(35, 2, 512, 0, 1), tolerance: LONG_REDUCTION },
  ...fixtureCases(LESSON, "distillLoss", (name) => (name.includes("T=512") ? LONG_REDUCTION : undefined)),
  ...fixturesWithGradient(LESSON, "distillLoss", distillGradient, DISTILL_GRADIENT, "", (name) => (name.includes("T=512") ? LONG_REDUCTION : undefined)),
];

const grader: LessonGrader = {
  lesson: LESSON,
  exercises: [
    {
      name: "decoupledPpoLoss",
      file: "decoupled-ppo.ts",
      tolerance: ELEMENTWISE,
      // Upstream first: a wrong behaviour weight or clip mask explains a wrong loss.
      outputOrder: ["importanceWeight", "clipMask", "dualClipMask", "loss"],
      call: (fn, x) => fn(x),
      cases: [
        { name: "worked example: token level, ε=0.2, ε_high=0.28, c=3", kind: "worked", inputs: () => workedBatch() },
        {
          name: "worked example: the same batch with rejection sampling (mask, upper 2)",
          kind: "worked",
          inputs: () => workedBatch({ rejectionSampling: { action: "mask", upper: 2 } }),
        },
        { name: "worked example: the same batch at sequence level (GSPO)", kind: "worked", inputs: () => workedBatch({ importanceSamplingLevel: "sequence" }) },
        {
          name: "AReaL's hand case: sequence-level advantages average per row, loss −1.5 (tests/test_functional.py:179-218)",
          kind: "edge",
          inputs: () => ({
            logprobs: tf.ones([2, 4]),
            proximalLogprobs: tf.ones([2, 4]),
            oldLogprobs: tf.ones([2, 4]),
            advantages: tf.tensor2d([[1, 2, 3, 4], [0.5, 0.5, 0.5, 0.5]]),
            lossMask: boolMask([[1, 1, 1, 1], [1, 1, 1, 1]]),
            epsClip: 0.2,
            importanceSamplingLevel: "sequence",
          }),
        },
        {
          name: "AReaL's hand case: geometric-mean ratios exp(0.5) and exp(1) (tests/test_functional.py:89-139)",
          kind: "edge",
          inputs: () => ({
            logprobs: tf.tensor2d([[1, 1, 1, 1], [2, 2, 2, 2]]),
            proximalLogprobs: tf.tensor2d([[0.5, 0.5, 0.5, 0.5], [1, 1, 1, 1]]),
            oldLogprobs: tf.zeros([2, 4]),
            advantages: tf.ones([2, 4]),
            lossMask: boolMask([[1, 1, 1, 1], [1, 1, 1, 1]]),
            epsClip: 0.2,
            importanceSamplingLevel: "sequence",
          }),
        },
        {
          name: "AReaL's legacy truncate vector: behaviour ratios 1, e², e^−0.5 clamped at 5 (tests/test_rejection_sampling.py:399-429)",
          kind: "edge",
          inputs: () => legacyRejectionVector("clamp"),
        },
        {
          name: "AReaL's legacy token-mask vector: the e² token leaves the loss but stays in the denominator (tests/test_rejection_sampling.py:378-397)",
          kind: "edge",
          inputs: () => legacyRejectionVector("mask"),
        },
        {
          name: "every token masked: loss 0 and weights 0, not NaN",
          kind: "edge",
          inputs: () => {
            const x = randomBatch(3, { B: 2, T: 3 }, { cClip: 3, importanceSamplingLevel: "sequence" });
            (x.lossMask as tf.Tensor).dispose();
            return { ...x, lossMask: tf.zeros([2, 3], "bool") };
          },
        },
        batchCase("all-masked rows at sequence level", "edge", 4, { B: 4, T: 5, minLen: 0 }, { importanceSamplingLevel: "sequence", cClip: 2 }),
        batchCase("a single token", "edge", 5, { B: 1, T: 1 }, { cClip: 3, epsClipHigher: 0.28 }),
        batchCase("ε_high omitted: the clip is symmetric", "edge", 6, { B: 3, T: 6, stepStd: 0.6 }, {}),
        {
          name: "cClip = 1 is refused with an error (AReaL asserts c_clip > 1)",
          kind: "edge",
          inputs: () => workedBatch({ cClip: 1 }),
          call: throwsOnOptions,
          checks: "that the function throws an Error for cClip ≤ 1",
        },
        {
          name: "cClip = 0 is refused too: a given cClip is checked even when it is falsy",
          kind: "edge",
          inputs: () => workedBatch({ cClip: 0 }),
          call: throwsOnOptions,
          checks: "that the function throws an Error for cClip = 0 (given, and not greater than 1)",
        },
        {
          name: "log-probs near −105 (rare tokens): the worked batch shifted by −105, rejection sampling (mask, upper 2)",
          kind: "edge",
          inputs: () => shiftLogprobs(workedBatch({ rejectionSampling: { action: "mask", upper: 2 } }), ["logprobs", "proximalLogprobs", "oldLogprobs"], -105),
        },
        {
          name: "a behaviour weight exactly at upper = 2 stays in the loss (w ≤ upper; exp(fround(ln 2)) is 2 in float32)",
          kind: "edge",
          inputs: () => ({
            logprobs: tf.tensor2d([[-0.1, -0.4, -1.3]]),
            proximalLogprobs: tf.tensor2d([[0, -0.5, -1.0]]),
            oldLogprobs: tf.tensor2d([[-LN2_F32, -0.6, -0.2]]),
            advantages: tf.tensor2d([[1.5, -0.5, 0.8]]),
            lossMask: boolMask([[1, 1, 1]]),
            epsClip: 0.2,
            rejectionSampling: { action: "mask", upper: 2 },
          }),
        },
        batchCase("stale batch with an empty row, token level, ε_high=0.28, c=3", "random", 11, { B: 4, T: 8, minLen: 0, staleStd: 0.5, stepStd: 0.6 }, { epsClipHigher: 0.28, cClip: 3 }),
        batchCase("ratios near 1, no dual clip", "random", 12, { B: 3, T: 7, stepStd: 0.05 }, { epsClip: 0.1 }),
        batchCase("sequence level, ragged rows, c=2", "random", 13, { B: 5, T: 9, stepStd: 0.5 }, { importanceSamplingLevel: "sequence", cClip: 2, epsClipHigher: 0.3 }),
        batchCase("rejection sampling, mask above 1.5", "random", 14, { B: 4, T: 10, staleStd: 0.6 }, { rejectionSampling: { action: "mask", upper: 1.5 }, cClip: 3 }),
        batchCase("rejection sampling, clamp at 1.5", "random", 15, { B: 4, T: 10, staleStd: 0.6 }, { rejectionSampling: { action: "clamp", upper: 1.5 }, epsClipHigher: 0.28 }),
        batchCase(
          "rejection sampling (mask) at sequence level",
          "random",
          16,
          { B: 4, T: 8, staleStd: 0.6, stepStd: 0.4 },
          { rejectionSampling: { action: "mask", upper: 1.5 }, importanceSamplingLevel: "sequence" },
        ),
        batchCase("long responses, T=512", "random", 17, { B: 4, T: 512, staleStd: 0.4, stepStd: 0.4 }, { epsClipHigher: 0.28, cClip: 3, rejectionSampling: { action: "mask", upper: 2 } }, LONG_REDUCTION),
        gradientCase("gradient, token level with dual clip and rejection sampling", 18, { B: 3, T: 6, staleStd: 0.5, stepStd: 0.5 }, { cClip: 3, epsClipHigher: 0.28, rejectionSampling: { action: "mask", upper: 1.8 } }),
        gradientCase("gradient, sequence level", 19, { B: 3, T: 5, stepStd: 0.3 }, { importanceSamplingLevel: "sequence", cClip: 3 }),
        ...fixtureCases(LESSON, "decoupledPpoLoss", (name) => (name.includes("T=512") ? LONG_REDUCTION : undefined)),
      ],
    },
    {
      name: "distillLoss",
      file: "distill.ts",
      tolerance: ELEMENTWISE,
      outputOrder: ["rklStat", "loss"],
      call: distillCall,
      cases: distillCases,
    },
  ],
};

export default grader;
