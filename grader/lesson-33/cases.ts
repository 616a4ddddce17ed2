/**
 * Lesson 33 — AReaL's advantage pipeline. Cases for the three functions of
 * exercises/lesson-33/advantages.ts: the lesson's worked example, edge cases, seeded random
 * rollouts, and PyTorch fixtures computed from AReaL's lines (grader/lesson-33/parity.py).
 */
import * as tf from "../../lib/tf.js";
import { isNotImplemented } from "../../lib/errors.js";
import { tensorsIn } from "../engine/compare.js";
import { fixtureCases } from "../engine/fixtures.js";
import { uniform2d } from "../engine/generators.js";
import { Rng } from "../../lib/random.js";
import { ELEMENTWISE, LONG_REDUCTION } from "../engine/types.js";
import type { AnyFn, CaseDef, Inputs, LessonGrader, Tolerance } from "../engine/types.js";

const LESSON = "lesson-33";

/** Recursions over 512 positions: the looser tolerance of DESIGN.md. */
const fixtureTolerance = (name: string): Tolerance | undefined => (name.includes("T=512") ? LONG_REDUCTION : undefined);

const boolMatrix = (rows: number[][]) => tf.tensor2d(rows, undefined, "bool");

/** Calls the function and reports whether it threw; an unfinished stub still reports "not implemented". */
function throwsCall(call: (fn: AnyFn, x: Inputs) => unknown) {
  return (fn: AnyFn, x: Inputs): string => {
    try {
      tf.dispose([...tensorsIn(call(fn, x))]);
      return "returned without an error";
    } catch (err) {
      if (isNotImplemented(err)) throw err;
      return "threw an error";
    }
  };
}

// ---------------------------------------------------------------- klEstimator

/** applyClamp is left out when a case has none, so its default is what gets graded. */
const callKl = (fn: AnyFn, x: Inputs) => (x.applyClamp === undefined ? fn(x.logProbs, x.logProbsBase, x.kind) : fn(x.logProbs, x.logProbsBase, x.kind, x.applyClamp));

/** The worked example's log-probabilities: δ = [0.2, −0.1, 0, −1.5, −13]. */
const workedKlInputs = (kind: string): Inputs => ({
  logProbs: tf.tensor1d([-0.5, -1.0, -0.2, -2.0, -14.0]),
  logProbsBase: tf.tensor1d([-0.7, -0.9, -0.2, -0.5, -1.0]),
  kind,
});

const klCase = (kind: string, seed: number, rows: number, cols: number, applyClamp: boolean, depth: number, caseKind: CaseDef["kind"] = "random"): CaseDef => ({
  name: `${kind}, ${applyClamp ? "clamped" : "not clamped"}, log-probs in [-${depth}, 0) (seed ${seed}, [${rows}, ${cols}])`,
  kind: caseKind,
  inputs: () => {
    const rng = new Rng(seed);
    return { logProbs: uniform2d(rng, rows, cols, -depth, 0), logProbsBase: uniform2d(rng, rows, cols, -depth, 0), kind, applyClamp };
  },
});

// ---------------------------------------------------------------- overlongPenalty

/** A [B, T] bool mask whose row b keeps its first lengths[b] positions. */
function lengthMask(lengths: readonly number[], T: number): tf.Tensor2D {
  return boolMatrix(lengths.map((len) => Array.from({ length: T }, (_, t) => (t < len ? 1 : 0))));
}

const overlongInputs = (rewards: number[], lengths: number[], T: number, overlongTokens: number, overlongPenaltyFactor: number, maxResponseLength: number): Inputs => ({
  rewards: tf.tensor1d(rewards),
  lossMask: lengthMask(lengths, T),
  overlongTokens,
  overlongPenaltyFactor,
  maxResponseLength,
});

const overlongRandomCase = (seed: number, B: number, T: number, overlongTokens: number, factor: number, maxLen: number): CaseDef => ({
  name: `random lengths (seed ${seed}, B=${B} T=${T}, max ${maxLen}, tail ${overlongTokens}, factor ${factor})`,
  kind: "random",
  inputs: () => {
    const rng = new Rng(seed);
    const lengths = Array.from({ length: B }, () => rng.int(0, T));
    return overlongInputs(Array.from(rng.normals(B)), lengths, T, overlongTokens, factor, maxLen);
  },
});

// ---------------------------------------------------------------- arealAdvantages

interface Settings {
  discount?: number;
  gaeLambda?: number;
  klCtl?: number;
  klEstimator?: "k1" | "k2" | "k3";
  maskNoEosWithZero?: boolean;
  rewardBias?: number;
  rewardScaling?: number;
  rewardClip?: number;
}

/** AReaL's defaults (areal/api/cli_args.py:1420-1462 @ 4aef98d8) overridden by `s`. */
const settings = (s: Settings = {}): Inputs => ({
  discount: 1,
  gaeLambda: 1,
  klCtl: 0.1,
  klEstimator: "k1",
  maskNoEosWithZero: false,
  rewardBias: 0,
  rewardScaling: 1,
  rewardClip: 20,
  ...s,
});

/** The rollout of the lesson's worked example (B=2, T=6); see lessons/33-areal-advantages.md. */
function workedRollout(): Inputs {
  return {
    attentionMask: boolMatrix([[1, 1, 1, 1, 1, 0], [1, 1, 1, 1, 1, 1]]),
    lossMask: boolMatrix([[0, 0, 1, 1, 1, 0], [0, 0, 1, 1, 1, 1]]),
    logprobs: tf.tensor2d([[0, 0, -0.5, -1.0, -0.2, 0], [0, 0, -0.3, -0.8, -1.2, -0.6]]),
    refLogp: tf.tensor2d([[-9, -0.7, -0.9, -0.2, -3, -3], [-9, -0.4, -0.8, -1.0, -0.5, -2]]),
    values: tf.tensor2d([[0.1, 0.2, 0.3, 0.5, 0.4, 0.9], [0.0, 0.1, -0.1, 0.2, 0.3, 0.6]]),
    rewards: tf.tensor1d([1.0, -0.4]),
  };
}

const WORKED: Settings = { discount: 1, gaeLambda: 0.95, rewardBias: 0.2, rewardScaling: 2, rewardClip: 2 };

/**
 * A seeded rollout: a prompt of 1 … T/3 tokens, then the response, then padding. The first
 * `noEosRows` rows fill the window (they hit the length limit); with `holes`, every other response
 * has a two-token span outside the loss mask (tool output in a multi-turn rollout).
 */
function randomRollout(seed: number, B: number, T: number, opts: { holes?: boolean; noEosRows?: number } = {}): Inputs {
  const rng = new Rng(seed);
  const attention: number[][] = [];
  const loss: number[][] = [];
  for (let b = 0; b < B; b++) {
    const prompt = rng.int(1, Math.max(1, Math.floor(T / 3)));
    const seqlen = b < (opts.noEosRows ?? 2) ? T : rng.int(Math.min(prompt + 1, T), T);
    attention.push(Array.from({ length: T }, (_, t) => (t < seqlen ? 1 : 0)));
    const row = Array.from({ length: T }, (_, t) => (t >= prompt && t < seqlen ? 1 : 0));
    if (opts.holes && seqlen - prompt > 4 && b % 2 === 0) {
      const start = prompt + rng.int(1, seqlen - prompt - 3);
      row.fill(0, start, start + 2);
    }
    loss.push(row);
  }
  const logprobs = loss.flat().map((m) => (m ? rng.uniform(-2.5, 0) : 0));
  return {
    attentionMask: boolMatrix(attention),
    lossMask: boolMatrix(loss),
    logprobs: tf.tensor2d(logprobs, [B, T]),
    refLogp: tf.tensor2d(rng.uniforms(B * T, -2.5, 0), [B, T]),
    values: tf.tensor2d(rng.normals(B * T), [B, T]),
    rewards: tf.tensor1d(rng.normals(B, 0, 2)),
  };
}

const advantageCase = (
  name: string,
  kind: CaseDef["kind"],
  seed: number,
  B: number,
  T: number,
  s: Settings,
  opts: { holes?: boolean; noEosRows?: number; drop?: string[]; tolerance?: Tolerance } = {},
): CaseDef => ({
  name: `${name} (seed ${seed}, B=${B} T=${T})`,
  kind,
  inputs: () => {
    const rollout = randomRollout(seed, B, T, opts);
    for (const key of opts.drop ?? []) {
      (rollout[key] as tf.Tensor).dispose();
      delete rollout[key];
    }
    return { ...rollout, ...settings(s) };
  },
  tolerance: opts.tolerance,
});

const grader: LessonGrader = {
  lesson: LESSON,
  exercises: [
    {
      name: "klEstimator",
      file: "advantages.ts",
      tolerance: ELEMENTWISE,
      call: callKl,
      cases: [
        { name: "worked example, k1 (clamped by default)", kind: "worked", inputs: () => workedKlInputs("k1") },
        { name: "worked example, k2 (clamped by default)", kind: "worked", inputs: () => workedKlInputs("k2") },
        { name: "worked example, k3 (clamped by default)", kind: "worked", inputs: () => workedKlInputs("k3") },
        { name: "worked example, k3 with applyClamp = false: e^13 − 14 survives", kind: "edge", inputs: () => ({ ...workedKlInputs("k3"), applyClamp: false }) },
        { name: "worked example, k1 with applyClamp = false: −13 survives", kind: "edge", inputs: () => ({ ...workedKlInputs("k1"), applyClamp: false }) },
        {
          name: "identical log-probs: every estimator is exactly 0",
          kind: "edge",
          inputs: () => ({ logProbs: tf.tensor2d([[-0.3, -2.0], [-7.5, 0]]), logProbsBase: tf.tensor2d([[-0.3, -2.0], [-7.5, 0]]), kind: "k3" }),
        },
        {
          name: "k3 on log-probs near −105 (rare tokens): the worked example shifted by −105",
          kind: "edge",
          inputs: () => {
            const x = workedKlInputs("k3");
            const shift = (t: tf.Tensor) => {
              const shifted = tf.add(t, -105);
              t.dispose();
              return shifted;
            };
            return { ...x, logProbs: shift(x.logProbs as tf.Tensor), logProbsBase: shift(x.logProbsBase as tf.Tensor) };
          },
        },
        { name: "an unknown estimator is an error", kind: "edge", inputs: () => workedKlInputs("k4"), call: throwsCall(callKl), checks: "that kind \"k4\" throws" },
        klCase("k1", 11, 4, 16, true, 3),
        klCase("k2", 12, 4, 16, true, 3),
        klCase("k3", 13, 4, 16, true, 3),
        klCase("k2", 14, 3, 8, false, 12, "edge"),
        klCase("k3", 15, 2, 512, true, 15),
        ...fixtureCases(LESSON, "klEstimator"),
      ],
    },
    {
      name: "overlongPenalty",
      file: "advantages.ts",
      tolerance: ELEMENTWISE,
      call: (fn, x) => fn(x),
      cases: [
        { name: "worked example: lengths 3, 5, 7, 8 of max 8 with a tail of 4", kind: "worked", inputs: () => overlongInputs([1, 1, 0.5, 0], [3, 5, 7, 8], 8, 4, 1, 8) },
        { name: "lengths 0 and exactly max − tail keep their reward", kind: "edge", inputs: () => overlongInputs([0.7, -0.2], [0, 6], 10, 4, 1, 10) },
        { name: "past the limit the penalty exceeds the factor", kind: "edge", inputs: () => overlongInputs([1, 1], [12, 16], 16, 4, 0.5, 12) },
        {
          name: "loss masks after a prompt and with a hole (tool output): the length is the count of mask tokens",
          kind: "edge",
          inputs: () => ({
            rewards: tf.tensor1d([1, 0.5, -0.2]),
            lossMask: boolMatrix([
              [0, 0, 1, 1, 1, 1, 1, 0, 0, 0],
              [0, 1, 1, 0, 0, 1, 1, 1, 1, 0],
              [0, 0, 0, 1, 1, 1, 0, 0, 1, 1],
            ]),
            overlongTokens: 4,
            overlongPenaltyFactor: 1,
            maxResponseLength: 8,
          }),
        },
        { name: "a single one-token response", kind: "edge", inputs: () => overlongInputs([2], [1], 1, 1, 3, 1) },
        overlongRandomCase(21, 16, 64, 16, 1, 64),
        overlongRandomCase(22, 8, 40, 8, 0.5, 32),
        overlongRandomCase(23, 4, 512, 128, 2, 512),
        ...fixtureCases(LESSON, "overlongPenalty"),
      ],
    },
    {
      name: "arealAdvantages",
      file: "advantages.ts",
      tolerance: ELEMENTWISE,
      call: (fn, x) => fn(x),
      cases: [
        { name: "worked example (γ=1, λ=0.95, k1, kl_ctl 0.1, bias 0.2, scale 2, clip 2)", kind: "worked", inputs: () => ({ ...workedRollout(), ...settings(WORKED) }) },
        {
          name: "worked example with mask_no_eos_with_zero: the truncated row loses its outcome reward",
          kind: "edge",
          inputs: () => ({ ...workedRollout(), ...settings({ ...WORKED, maskNoEosWithZero: true }) }),
        },
        {
          name: "rows of one and two tokens, and a width of one",
          kind: "edge",
          inputs: () => ({
            attentionMask: boolMatrix([[1, 0, 0], [1, 1, 0], [1, 1, 1]]),
            lossMask: boolMatrix([[1, 0, 0], [0, 1, 0], [0, 1, 1]]),
            logprobs: tf.tensor2d([[-0.4, 0, 0], [0, -1.1, 0], [0, -0.2, -0.7]]),
            refLogp: tf.tensor2d([[-0.6, -1, -1], [-0.9, -1, -1], [-0.5, -0.4, -1]]),
            values: tf.tensor2d([[0.3, 0.1, -0.2], [0.5, 0.2, 0.4], [-0.1, 0.6, 0.8]]),
            rewards: tf.tensor1d([1, -1, 0.5]),
            ...settings({ discount: 0.9, gaeLambda: 0.8 }),
          }),
        },
        {
          name: "a window of one position",
          kind: "edge",
          inputs: () => ({
            attentionMask: boolMatrix([[1], [1]]),
            lossMask: boolMatrix([[1], [0]]),
            logprobs: tf.tensor2d([[-0.5], [0]]),
            values: tf.tensor2d([[0.4], [-0.3]]),
            rewards: tf.tensor1d([1, 3]),
            ...settings(),
          }),
        },
        advantageCase("no values and no reference log-probs: both default to zeros", "edge", 31, 3, 9, {}, { drop: ["values", "refLogp"] }),
        advantageCase("every row hits the limit: all bootstrap from V[T − 1]", "edge", 32, 4, 8, { discount: 0.95, gaeLambda: 0.9 }, { noEosRows: 4 }),
        advantageCase("AReaL defaults (γ=λ=1, k1, kl_ctl 0.1)", "random", 33, 4, 12, {}),
        advantageCase(
          "holes in the loss mask, γ=0.9 λ=0.95, k3, bias −0.5 scale 2 clip 1.5",
          "random",
          34,
          6,
          16,
          { discount: 0.9, gaeLambda: 0.95, klEstimator: "k3", rewardBias: -0.5, rewardScaling: 2, rewardClip: 1.5 },
          { holes: true },
        ),
        advantageCase("mask_no_eos_with_zero, k2, γ=0.95 λ=0.9", "random", 35, 5, 10, { discount: 0.95, gaeLambda: 0.9, klEstimator: "k2", maskNoEosWithZero: true, klCtl: 0.05 }, { holes: true }),
        advantageCase("long rollouts, T=512, γ=0.99 λ=0.95", "random", 36, 3, 512, { discount: 0.99, gaeLambda: 0.95, klCtl: 0.02 }, { holes: true, tolerance: LONG_REDUCTION }),
        ...fixtureCases(LESSON, "arealAdvantages", fixtureTolerance),
      ],
    },
  ],
};

export default grader;
