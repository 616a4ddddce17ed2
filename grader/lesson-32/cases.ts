/**
 * Lesson 32 — GSPO and SAPO. Cases for the two functions of exercises/lesson-32/sapo.ts: the
 * lesson's worked example, AReaL's own test vectors (tests/test_functional.py @ 4aef98d8), edge
 * cases, seeded random batches, gradients, and PyTorch fixtures computed from AReaL's lines
 * (grader/lesson-32/parity.py).
 */
import * as tf from "../../lib/tf.js";
import { isNotImplemented } from "../../lib/errors.js";
import { tensorsIn } from "../engine/compare.js";
import { gradientCall } from "../engine/gradients.js";
import { fixtureCases } from "../engine/fixtures.js";
import { normal2d, prefixMask, raggedLengths, uniform2d } from "../engine/generators.js";
import { Rng } from "../../lib/random.js";
import { ELEMENTWISE, LONG_REDUCTION } from "../engine/types.js";
import type { AnyFn, CaseDef, Inputs, LessonGrader, Tolerance } from "../engine/types.js";

const LESSON = "lesson-32";

/** Long rows sum over 512+ positions: the looser tolerance of DESIGN.md. */
const fixtureTolerance = (name: string): Tolerance | undefined => (name.includes("T=512") ? LONG_REDUCTION : undefined);

interface Batch {
  logprobs: tf.Tensor2D;
  oldLogprobs: tf.Tensor2D;
  advantages: tf.Tensor2D;
  lossMask: tf.Tensor2D;
}

/** The batch of the lesson's worked example (B=2, T=4); see lessons/32-gspo-and-sapo.md. */
function workedBatch(): Batch {
  return {
    logprobs: tf.tensor2d([[-1.0, -0.8, -1.5, 0], [-0.5, -2.0, -1.2, -0.9]]),
    oldLogprobs: tf.tensor2d([[-1.2, -0.7, -1.5, 0], [-0.6, -1.7, -1.2, -1.1]]),
    advantages: tf.tensor2d([[0.8, 0.8, 0.8, 5.0], [-0.6, -0.2, -0.6, -0.6]]),
    lossMask: tf.tensor2d([[1, 1, 1, 0], [1, 1, 1, 1]], undefined, "bool"),
  };
}

/** [B, T] bool mask keeping the first lengths[b] positions of row b. */
function boolPrefixMask(lengths: readonly number[], T: number): tf.Tensor2D {
  return tf.tidy(() => tf.cast(prefixMask(lengths, T), "bool"));
}

/** A seeded batch: ragged rows (row 0 full; row 1 of `minLen` when B > 2), both advantage signs. */
function randomBatch(seed: number, B: number, T: number, opts: { minLen?: number; logRatioStd?: number; atRatioOne?: boolean } = {}): Batch {
  const rng = new Rng(seed);
  const lengths = raggedLengths(rng, B, T, opts.minLen ?? 1);
  const oldLogprobs = uniform2d(rng, B, T, -3, 0);
  const noise = normal2d(rng, B, T, 0, opts.logRatioStd ?? 0.3);
  const logprobs = opts.atRatioOne ? oldLogprobs.clone() : (tf.add(oldLogprobs, noise) as tf.Tensor2D);
  noise.dispose();
  return { logprobs, oldLogprobs, advantages: normal2d(rng, B, T), lossMask: boolPrefixMask(lengths, T) };
}

/** sequenceLevelRatio's inputs from a batch: logRatio = logprobs − oldLogprobs. */
function ratioInputs(b: Batch, extra: Inputs = {}): Inputs {
  const logRatio = tf.sub(b.logprobs, b.oldLogprobs);
  b.logprobs.dispose();
  b.oldLogprobs.dispose();
  return { logRatio, advantages: b.advantages, lossMask: b.lossMask, ...extra };
}

const describeBatch = (seed: number, B: number, T: number) => `seed ${seed}, B=${B} T=${T}`;

const ratioCase = (name: string, kind: CaseDef["kind"], seed: number, B: number, T: number, minLen = 1, tolerance?: Tolerance): CaseDef => ({
  name: `${name} (${describeBatch(seed, B, T)})`,
  kind,
  inputs: () => ratioInputs(randomBatch(seed, B, T, { minLen, logRatioStd: 0.5 })),
  tolerance,
});

interface SapoSettings {
  tauPos?: number;
  tauNeg?: number;
  level?: "token" | "sequence";
  minLen?: number;
  logRatioStd?: number;
  atRatioOne?: boolean;
}

/** sapoLoss's options object from a batch and settings (AReaL's default temperatures 1.0 / 1.05). */
function sapoInputs(b: Batch, s: SapoSettings): Inputs {
  return { ...b, tauPos: s.tauPos ?? 1, tauNeg: s.tauNeg ?? 1.05, importanceSamplingLevel: s.level ?? "token" };
}

const sapoCase = (name: string, kind: CaseDef["kind"], seed: number, B: number, T: number, s: SapoSettings, tolerance?: Tolerance): CaseDef => ({
  name: `${name} (${describeBatch(seed, B, T)}, ${s.level ?? "token"} level, τ+=${s.tauPos ?? 1} τ-=${s.tauNeg ?? 1.05})`,
  kind,
  inputs: () => sapoInputs(randomBatch(seed, B, T, s), s),
  tolerance,
});

/** d loss / d logprobs, the gradient the optimiser sees. */
const sapoGradient = gradientCall((fn, x) => fn(x), "logprobs", { pick: "loss" });

/** Calls the function and reports whether it threw; an unfinished stub still reports "not implemented". */
function throwsCall(fn: AnyFn, x: Inputs): string {
  try {
    tf.dispose([...tensorsIn(fn(x))]);
    return "returned without an error";
  } catch (err) {
    if (isNotImplemented(err)) throw err;
    return "threw an error";
  }
}

const throwsCase = (name: string, s: { tauPos?: number; tauNeg?: number; level?: string }): CaseDef => ({
  name,
  kind: "edge",
  inputs: () => ({ ...randomBatch(61, 1, 3), tauPos: s.tauPos ?? 1, tauNeg: s.tauNeg ?? 1.05, importanceSamplingLevel: s.level ?? "token" }),
  call: throwsCall,
  checks: "that invalid settings throw an error instead of returning a loss",
});

/**
 * The vanilla policy gradient at r = 1: −A·mask / max(count, 1) per token, with A the token
 * advantage ("token" level) or the row's mean masked advantage ("sequence" level, GSPO).
 */
function vanillaGradientAtRatioOne(b: Batch, level: "token" | "sequence"): tf.Tensor2D {
  return tf.tidy(() => {
    const mask = tf.cast(b.lossMask, "float32");
    const count = tf.maximum(tf.sum(mask), 1);
    const rowMean = tf.div(tf.sum(tf.mul(b.advantages, mask), 1, true), tf.maximum(tf.sum(mask, 1, true), 1));
    const adv = level === "token" ? b.advantages : rowMean;
    return tf.div(tf.neg(tf.mul(adv, mask)), count) as tf.Tensor2D;
  });
}

const gradientAtOneCase = (level: "token" | "sequence", seed: number): CaseDef => {
  const s: SapoSettings = { level, tauPos: 2, tauNeg: 0.7, atRatioOne: true };
  return {
    name: `gradient at r = 1 equals the vanilla policy gradient, ${level} level (${describeBatch(seed, 3, 6)}, τ+=2 τ-=0.7)`,
    kind: "edge",
    inputs: () => sapoInputs(randomBatch(seed, 3, 6, s), s),
    expected: () => {
      const b = randomBatch(seed, 3, 6, s);
      const g = vanillaGradientAtRatioOne(b, level);
      tf.dispose(Object.values(b));
      return g;
    },
    call: sapoGradient,
    checks: `the gradient of the loss with respect to logprobs at r = 1, which must be −${level === "token" ? "A" : "mean(A)"}·mask/count`,
  };
};

const grader: LessonGrader = {
  lesson: LESSON,
  exercises: [
    {
      name: "sequenceLevelRatio",
      file: "sapo.ts",
      tolerance: ELEMENTWISE,
      call: (fn, x) => fn(x.logRatio, x.advantages, x.lossMask),
      cases: [
        { name: "worked example (B=2, T=4)", kind: "worked", inputs: () => ratioInputs(workedBatch()) },
        {
          name: "AReaL's own vectors: log-ratios 0.5 and 1.0, advantages averaging to 2.5 and 0.5 (tests/test_functional.py:89-139, 179-218)",
          kind: "worked",
          inputs: () => ({
            logRatio: tf.tensor2d([[0.5, 0.5, 0.5, 0.5], [1, 1, 1, 1]]),
            advantages: tf.tensor2d([[1, 2, 3, 4], [0.5, 0.5, 0.5, 0.5]]),
            lossMask: tf.ones([2, 4], "bool"),
          }),
        },
        {
          name: "advantages under padding are ignored (tests/test_functional.py:261-296)",
          kind: "edge",
          inputs: () => ({
            logRatio: tf.tensor2d([[0.3, -0.1, 2, 2]]),
            advantages: tf.tensor2d([[1, 1, 10, 10]]),
            lossMask: tf.tensor2d([[1, 1, 0, 0]], undefined, "bool"),
          }),
        },
        {
          name: "a mask with holes (tool output inside a response): only the masked-in positions average",
          kind: "edge",
          inputs: () => ({
            logRatio: tf.tensor2d([[0.4, 2.0, -1.5, 0.2, 0.1, 0], [-0.3, -0.2, 1.2, 1.4, 0.5, 0.6]]),
            advantages: tf.tensor2d([[1.0, 9.0, -7.0, 0.5, 2.0, 0], [-1.0, -0.6, 4.0, 3.0, -0.2, 0.4]]),
            lossMask: tf.tensor2d([[1, 0, 0, 1, 1, 0], [1, 1, 0, 0, 1, 1]], undefined, "bool"),
          }),
        },
        ratioCase("all-masked rows give zeros, not NaN", "edge", 13, 4, 5, 0),
        ratioCase("a single token", "edge", 14, 1, 1),
        ratioCase("ragged rows", "random", 11, 4, 9),
        ratioCase("long rows, T=512", "random", 12, 4, 512, 1, LONG_REDUCTION),
        {
          name: `gradient of Σ w·ratio flows into every masked log-ratio (${describeBatch(15, 3, 7)})`,
          kind: "random",
          inputs: () => ratioInputs(randomBatch(15, 3, 7, { minLen: 0, logRatioStd: 0.5 }), { weights: normal2d(new Rng(16), 3, 7) }),
          call: gradientCall((fn, x) => fn(x.logRatio, x.advantages, x.lossMask), "logRatio", { pick: "ratio", upstream: "weights" }),
          checks: "the gradient with respect to logRatio: each masked token of row i gets ratio_i/n_i times the row's Σ w",
        },
        ...fixtureCases(LESSON, "sequenceLevelRatio", fixtureTolerance),
      ],
    },
    {
      name: "sapoLoss",
      file: "sapo.ts",
      tolerance: ELEMENTWISE,
      call: (fn, x) => fn(x),
      cases: [
        { name: "worked example, token level (τ+=1, τ-=1.05)", kind: "worked", inputs: () => sapoInputs(workedBatch(), {}) },
        { name: "worked example, sequence level (τ+=1, τ-=1.05)", kind: "worked", inputs: () => sapoInputs(workedBatch(), { level: "sequence" }) },
        {
          name: "AReaL's known value: r = 1, A = 1, τ = 1 gives −2 (tests/test_functional.py:923-946)",
          kind: "edge",
          inputs: () => ({
            logprobs: tf.tensor2d([[1, 1]]),
            oldLogprobs: tf.tensor2d([[1, 1]]),
            advantages: tf.tensor2d([[1, 1]]),
            tauPos: 1,
            tauNeg: 1,
            lossMask: tf.ones([1, 2], "bool"),
            importanceSamplingLevel: "token",
          }),
        },
        throwsCase("τ+ = 0 is an error (tests/test_functional.py:1038-1054)", { tauPos: 0 }),
        throwsCase("a negative τ- is an error (tests/test_functional.py:1056-1072)", { tauNeg: -1 }),
        throwsCase("an unknown importance-sampling level is an error", { level: "tokens" }),
        throwsCase("τ- = 0 is an error too: both temperatures must be strictly positive", { tauNeg: 0 }),
        {
          name: "importanceSamplingLevel omitted: the token level (AReaL's default)",
          kind: "edge",
          inputs: () => ({ ...workedBatch(), tauPos: 1, tauNeg: 1.05 }),
        },
        {
          name: "log-probs near −105 (rare tokens): the worked batch shifted by −105, token level",
          kind: "edge",
          inputs: () => {
            const b = workedBatch();
            const shifted = { ...b, logprobs: tf.add(b.logprobs, -105) as tf.Tensor2D, oldLogprobs: tf.add(b.oldLogprobs, -105) as tf.Tensor2D };
            tf.dispose([b.logprobs, b.oldLogprobs]);
            return sapoInputs(shifted, {});
          },
        },
        gradientAtOneCase("token", 31),
        gradientAtOneCase("sequence", 32),
        {
          name: `gradient away from r = 1, sharp gates (${describeBatch(33, 4, 7)}, τ+=3 τ-=0.5)`,
          kind: "random",
          inputs: () => sapoInputs(randomBatch(33, 4, 7, { logRatioStd: 0.6 }), { tauPos: 3, tauNeg: 0.5 }),
          call: sapoGradient,
          checks: "the gradient of the loss with respect to logprobs",
        },
        {
          name: "every token masked: the loss is 0, not NaN (sequence level)",
          kind: "edge",
          inputs: () => {
            const b = randomBatch(34, 2, 3, { logRatioStd: 0.5 });
            b.lossMask.dispose();
            return sapoInputs({ ...b, lossMask: tf.zeros([2, 3], "bool") }, { level: "sequence" });
          },
        },
        sapoCase("all-masked rows among full ones", "edge", 35, 4, 5, { minLen: 0 }),
        sapoCase("a single token", "edge", 36, 1, 1, { logRatioStd: 0.5 }),
        sapoCase("ratios near 1", "random", 41, 4, 8, { logRatioStd: 0.1 }),
        sapoCase("ratios far from 1, sharp gates", "random", 42, 4, 8, { logRatioStd: 0.8, tauPos: 3, tauNeg: 0.5 }),
        sapoCase("ratios far from 1", "random", 43, 5, 9, { logRatioStd: 0.6, level: "sequence", tauPos: 0.5, tauNeg: 2 }),
        sapoCase("long rows, T=512", "random", 44, 4, 512, { level: "sequence" }, LONG_REDUCTION),
        ...fixtureCases(LESSON, "sapoLoss", fixtureTolerance),
      ],
    },
  ],
};

export default grader;
