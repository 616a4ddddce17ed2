/**
 * Lesson 30 — Proximal approximation and staleness. Cases for proxLogpApproximations and
 * stalenessStats (exercises/lesson-30/prox-approx.ts): the lesson's worked example, AReaL's own
 * hand cases (tests/test_prox_approx.py @ 4aef98d8), seeded batches whose rollouts span several
 * policy versions, and PyTorch fixtures restating areal/trainer/ppo/actor.py
 * (grader/lesson-30/parity.py). Cases for mismatchKl and resolveLogps (exercises/lesson-30/
 * logp-sources.ts): the worked examples, every mode and error of AReaL's log-prob resolution, and
 * fixtures restating actor.py:1045-1062, 178-191, 716-766 and cli_args.py:1534-1545.
 */
import * as tf from "../../lib/tf.js";
import { describe } from "../engine/compare.js";
import { fixtureCases } from "../engine/fixtures.js";
import { Rng } from "../../lib/random.js";
import { throwsCall } from "../engine/throws.js";
import { ELEMENTWISE, EXACT, LONG_REDUCTION } from "../engine/types.js";
import type { AnyFn, CaseDef, Inputs, LessonGrader } from "../engine/types.js";

const LESSON = "lesson-30";

/** The batch of the lesson's worked example: B=2, T=5, current version 5 (so v_prox = 4). */
function workedBatch(): Inputs {
  return {
    oldLogp: tf.tensor2d([[0, 0, -1.2, -0.4, -2.0], [0, -0.7, -1.5, -0.9, -0.3]]),
    logprobs: tf.tensor2d([[-3.1, -2.5, -0.8, -0.6, -1.9], [-2.2, -1.3, -1.1, -0.9, -0.35]]),
    versions: tf.tensor2d([[-1, -1, 3, 3, 4], [-1, 0, 2, 4, 5]], [2, 5], "int32"),
    mask: tf.tensor2d([[0, 1, 1, 1, 1], [0, 1, 1, 1, 0]], [2, 5], "bool"),
    currentVersion: 5,
  };
}

/** A hand batch of one row: log-probs and versions as given. */
function handRow(oldLogp: number[], logprobs: number[], versions: number[], currentVersion: number, mask?: number[]): Inputs {
  const T = versions.length;
  return {
    oldLogp: tf.tensor2d([oldLogp]),
    logprobs: tf.tensor2d([logprobs]),
    versions: tf.tensor2d([versions], [1, T], "int32"),
    mask: tf.tensor2d([mask ?? versions.map(() => 1)], [1, T], "bool"),
    currentVersion,
  };
}

interface RolloutSpec {
  B: number;
  T: number;
  currentVersion: number;
  /** Oldest version a rollout may start from. */
  oldest?: number;
}

/**
 * Seeded rollouts: each row is a prompt (version −1), a response whose version starts somewhere in
 * [oldest, current] and steps up when the weights changed mid-generation, then padding (version 0,
 * as zero-padding leaves it). The mask is AReaL's loss mask rolled by −1 (actor.py:175-176) beside
 * versions that are not rolled: it is true from the last prompt position to the second-to-last
 * response token, so one version −1 token per row is masked in. Log-probs in [−4, 0).
 */
function rolloutBatch(seed: number, spec: RolloutSpec): Inputs {
  const rng = new Rng(seed);
  const { B, T, currentVersion } = spec;
  const versions = new Int32Array(B * T);
  const mask = new Uint8Array(B * T);
  for (let b = 0; b < B; b++) {
    const promptLen = rng.int(1, Math.max(1, Math.floor(T / 3)));
    const end = b === 0 ? T : rng.int(promptLen, T);
    let version = rng.int(spec.oldest ?? 0, currentVersion);
    for (let t = 0; t < T; t++) {
      const i = b * T + t;
      if (t < promptLen) versions[i] = -1;
      else if (t < end) {
        if (version < currentVersion && rng.next() < 0.1) version++;
        versions[i] = version;
      }
      if (t >= promptLen - 1 && t < end - 1) mask[i] = 1;
    }
  }
  const oldLogp = tf.tensor2d(rng.uniforms(B * T, -4, 0), [B, T]);
  const logprobs = tf.tidy(() => tf.clipByValue(tf.add(oldLogp, tf.tensor2d(rng.normals(B * T, 0, 0.5), [B, T])), -8, 0)) as tf.Tensor2D;
  return {
    oldLogp,
    logprobs,
    versions: tf.tensor2d(versions, [B, T], "int32"),
    mask: tf.tensor2d(mask, [B, T], "bool"),
    currentVersion,
  };
}

/**
 * A batch too large for argument spreading: B=64 rows of T=8192 (524,288 tokens; Math.max(...xs)
 * throws a RangeError well before that). Each row: a prompt of 1…5 tokens (version −1), a response
 * whose versions step up to the current one, and the last eighth as padding; the mask skips the prompt.
 */
function largeStalenessBatch(): Inputs {
  const B = 64;
  const T = 8192;
  const currentVersion = 20;
  const versions = new Int32Array(B * T);
  const mask = new Uint8Array(B * T);
  for (let b = 0; b < B; b++) {
    const prompt = 1 + (b % 5);
    const end = T - ((b * 37) % (T / 8));
    const start = (b * 7) % currentVersion;
    for (let t = 0; t < T; t++) {
      const i = b * T + t;
      versions[i] = t < prompt ? -1 : t < end ? Math.min(currentVersion, start + Math.floor((t * 11) / T)) : 0;
      mask[i] = t >= prompt && t < end ? 1 : 0;
    }
  }
  return {
    versions: tf.tensor2d(versions, [B, T], "int32"),
    mask: tf.tensor2d(mask, [B, T], "bool"),
    currentVersion,
  };
}

const rolloutCase = (name: string, kind: CaseDef["kind"], seed: number, spec: RolloutSpec): CaseDef => ({
  name: `${name} (seed ${seed}, B=${spec.B} T=${spec.T}, current version ${spec.currentVersion})`,
  kind,
  inputs: () => rolloutBatch(seed, spec),
});

/**
 * stalenessStats returns plain numbers; the grader compares them as float32 scalars so that a
 * report names the field that differs (`theta.max`) and the lesson check can read the values.
 */
function numbersAsScalars(value: unknown, path = "the result"): unknown {
  if (value === null || value instanceof tf.Tensor) return value;
  if (typeof value === "number") return tf.scalar(value);
  if (typeof value === "object") {
    return Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, numbersAsScalars(v, path === "the result" ? k : `${path}.${k}`)]));
  }
  throw new TypeError(`the result must hold plain numbers (or be null), but \`${path}\` is ${describe(value)}`);
}


// ---------------------------------------------------------------- mismatchKl and resolveLogps

/** The worked example of "Which log-prob is which": the trainer's and the engine's log-probs on 2×3 tokens. */
function workedMismatch(): Inputs {
  return {
    logprobs: tf.tensor2d([[-0.5, -1.2, -2.0], [-0.1, -3.0, 0]]),
    oldLogp: tf.tensor2d([[-0.6, -1.0, -2.3], [-0.1, -2.5, -1.0]]),
    mask: tf.tensor2d([[1, 1, 1], [1, 1, 0]], [2, 3], "bool"),
  };
}

const callMismatch = (fn: AnyFn, x: Inputs) => numbersAsScalars(fn(x.logprobs, x.oldLogp, x.mask));

/** The worked batch of resolveLogps: one row of three tokens of versions 3, 4, 5 at current version 6. */
function workedSources(config: Record<string, unknown>, overrides: Record<string, unknown> = {}): Inputs {
  return {
    config: { useDecoupledLoss: false, recomputeLogprob: false, proxLogpMethod: "recompute", ...config },
    inferenceLogp: tf.tensor2d([[-1.0, -2.0, -0.5]]),
    recomputedLogp: tf.tensor2d([[-1.1, -1.8, -0.5]]),
    logprobs: tf.tensor2d([[-0.9, -1.6, -0.4]]),
    versions: tf.tensor2d([[3, 4, 5]], [1, 3], "int32"),
    currentVersion: 6,
    ...overrides,
  };
}

/** A seeded rollout batch with a recomputed proximal policy one small step from the engine's log-probs. */
function randomSources(seed: number, spec: RolloutSpec, config: Record<string, unknown>, recomputed = true): Inputs {
  const x = rolloutBatch(seed, spec);
  (x.mask as tf.Tensor).dispose();
  const rng = new Rng(seed + 1000);
  const old = x.oldLogp as tf.Tensor2D;
  const recomputedLogp = recomputed ? (tf.tidy(() => tf.minimum(tf.add(old, tf.tensor2d(rng.normals(spec.B * spec.T, 0, 0.2), [spec.B, spec.T])), 0)) as tf.Tensor2D) : null;
  return {
    config: { useDecoupledLoss: false, recomputeLogprob: false, proxLogpMethod: "recompute", ...config },
    inferenceLogp: old,
    recomputedLogp,
    logprobs: x.logprobs,
    versions: x.versions,
    currentVersion: spec.currentVersion,
  };
}

const batchOf = (x: Inputs) => ({
  inferenceLogp: x.inferenceLogp,
  recomputedLogp: x.recomputedLogp,
  logprobs: x.logprobs,
  versions: x.versions,
  currentVersion: x.currentVersion,
});

/** needsForwardPass as an int32 scalar (0/1), beside the two tensors. */
function callSources(fn: AnyFn, x: Inputs): unknown {
  const r = fn(x.config, batchOf(x)) as { needsForwardPass: boolean; behave: tf.Tensor; proximal: tf.Tensor };
  return { needsForwardPass: tf.scalar(r.needsForwardPass ? 1 : 0, "int32"), behave: r.behave, proximal: r.proximal };
}

/**
 * How many of the returned tensors are input tensors themselves (the contract: new tensors only, so
 * the caller may dispose them without freeing the batch), as an int32 scalar; the rest are disposed.
 */
function aliasedOutputs(fn: AnyFn, x: Inputs): unknown {
  const batch = batchOf(x);
  const r = fn(x.config, batch) as { behave: tf.Tensor; proximal: tf.Tensor };
  const inputs: unknown[] = [batch.inferenceLogp, batch.recomputedLogp, batch.logprobs, batch.versions];
  const outputs = [r.behave, r.proximal];
  tf.dispose(outputs.filter((t, i) => !inputs.includes(t) && outputs.indexOf(t) === i));
  return tf.scalar(outputs.filter((t) => inputs.includes(t)).length, "int32");
}

/** AReaL's messages, one distinctive phrase each (actor.py:181-185, 720-730, 753-764; the enum's own). */
const SOURCE_ERRORS = [
  "is not a valid ProxLogpMethod",
  "prox_logp is None but recompute_logprob=True",
  "prox_logp is None but prox_logp_method=",
  "but versions not available",
  "prox_logp is None after handling",
  "prox_logp contains NaN or Inf",
];

const errorCase = (name: string, inputs: () => Inputs): CaseDef => ({
  name,
  kind: "edge",
  inputs,
  call: throwsCall(callSources, SOURCE_ERRORS),
  checks: "that the configuration is refused with AReaL's error",
});

const COUPLED = { useDecoupledLoss: false, recomputeLogprob: false };
const COUPLED_RECOMPUTE = { useDecoupledLoss: false, recomputeLogprob: true };
const DECOUPLED = (proxLogpMethod: string) => ({ useDecoupledLoss: true, recomputeLogprob: false, proxLogpMethod });

const grader: LessonGrader = {
  lesson: LESSON,
  exercises: [
    {
      name: "proxLogpApproximations",
      file: "prox-approx.ts",
      tolerance: ELEMENTWISE,
      call: (fn, x) => fn({ oldLogp: x.oldLogp, logprobs: x.logprobs, versions: x.versions, currentVersion: x.currentVersion }),
      cases: [
        { name: "worked example: versions −1…5, current version 5", kind: "worked", inputs: workedBatch },
        {
          name: "AReaL's hand case: versions 0 and 2 at current version 4 give α = 0.75 and 0.5 (tests/test_prox_approx.py:84-106)",
          kind: "edge",
          inputs: () => ({
            oldLogp: tf.tensor2d([[-1.0], [-2.0]]),
            logprobs: tf.tensor2d([[-1.5], [-2.2]]),
            versions: tf.tensor2d([[0], [2]], [2, 1], "int32"),
            currentVersion: 4,
          }),
        },
        {
          name: "AReaL's hand case: linear mixes probabilities 0.5 and 0.25 into 0.375 (tests/test_prox_approx.py:108-127)",
          kind: "edge",
          inputs: () => handRow([-0.693], [-1.386], [0], 2),
        },
        {
          name: "AReaL's hand case: prompt tokens (version −1) keep old (tests/test_prox_approx.py:168-187)",
          kind: "edge",
          inputs: () => handRow([-1, -2, -3], [-1.5, -2.5, -3.5], [-1, 0, 1], 3),
        },
        {
          name: "AReaL's hand case: a token of the current version divides by zero, α = 0 (tests/test_prox_approx.py:150-166)",
          kind: "edge",
          inputs: () => handRow([-1, -1], [-2, -2], [3, 4], 3),
        },
        {
          name: "near-zero probabilities: the 1e-10 floor inside linear's log",
          kind: "edge",
          inputs: () => handRow([-30, -30, -25], [-40, -28, -30], [4, 2, 0], 5),
        },
        {
          name: "rollout is a copy, not the oldLogp tensor itself",
          kind: "edge",
          inputs: () => handRow([-1, -2, -3], [-1.5, -2.5, -3.5], [-1, 0, 1], 3),
          call: (fn, x) => {
            const r = fn({ oldLogp: x.oldLogp, logprobs: x.logprobs, versions: x.versions, currentVersion: x.currentVersion }) as Record<string, tf.Tensor>;
            const inputs: unknown[] = [x.oldLogp, x.logprobs, x.versions];
            const outputs = Object.values(r);
            tf.dispose(outputs.filter((t, i) => !inputs.includes(t) && outputs.indexOf(t) === i));
            return tf.scalar(outputs.filter((t) => inputs.includes(t)).length, "int32");
          },
          tolerance: EXACT,
          checks: "how many of loglinear, linear and rollout are input tensors themselves (0: rollout is tf.clone(oldLogp))",
        },
        { name: "current version 0: every token is current, α = 0", kind: "edge", inputs: () => handRow([-0.5, -1.5], [-0.7, -1.1], [0, 0], 0) },
        rolloutCase("rollouts spanning versions 0…8", "random", 21, { B: 4, T: 12, currentVersion: 8 }),
        rolloutCase("very stale rollouts", "random", 22, { B: 3, T: 10, currentVersion: 40, oldest: 10 }),
        rolloutCase("long responses, T=512", "random", 23, { B: 4, T: 512, currentVersion: 16 }),
        ...fixtureCases(LESSON, "proxLogpApproximations"),
      ],
    },
    {
      name: "stalenessStats",
      file: "prox-approx.ts",
      tolerance: ELEMENTWISE,
      call: (fn, x) => numbersAsScalars(fn(x.versions, x.currentVersion, x.mask)),
      cases: [
        { name: "worked example: six counted tokens, current version 5", kind: "worked", inputs: workedBatch },
        { name: "no generated token under the mask: null", kind: "edge", inputs: () => handRow([0, 0, -1], [0, 0, -1], [-1, -1, 3], 5, [1, 1, 0]) },
        { name: "a single counted token", kind: "edge", inputs: () => handRow([0, -1], [0, -1], [-1, 2], 6, [0, 1]) },
        {
          name: "a token generated by the current version is −1 behind the proximal policy",
          kind: "edge",
          inputs: () => handRow([0, -1, -1], [0, -1, -1], [-1, 6, 7], 7),
        },
        rolloutCase("rollouts spanning versions 0…8", "random", 31, { B: 4, T: 12, currentVersion: 8 }),
        rolloutCase("very stale rollouts", "random", 32, { B: 3, T: 10, currentVersion: 40, oldest: 10 }),
        rolloutCase("long responses, T=512", "random", 33, { B: 4, T: 512, currentVersion: 16 }),
        { name: "a batch of 524,288 tokens (B=64 T=8192, current version 20): no argument spreading", kind: "random", inputs: largeStalenessBatch, tolerance: LONG_REDUCTION },
        ...fixtureCases(LESSON, "stalenessStats"),
      ],
    },
      {
      name: "mismatchKl",
      file: "logp-sources.ts",
      tolerance: ELEMENTWISE,
      call: callMismatch,
      outputOrder: ["direct", "taylor", "dual"],
      cases: [
        { name: "worked example: five valid tokens", kind: "worked", inputs: workedMismatch },
        { name: "no valid token: null", kind: "edge", inputs: () => ({ ...workedMismatch(), mask: tf.zeros([2, 3], "bool") }) },
        { name: "identical log-probs: 0, 0, 0", kind: "edge", inputs: () => ({ logprobs: tf.tensor2d([[-0.3, -2]]), oldLogp: tf.tensor2d([[-0.3, -2]]), mask: tf.ones([1, 2], "bool") }) },
        {
          name: "one token, the trainer 1 nat more confident: −1, 0.5, e − 2",
          kind: "edge",
          inputs: () => ({ logprobs: tf.tensor2d([[-0.5, -9]]), oldLogp: tf.tensor2d([[-1.5, -1]]), mask: tf.tensor2d([[1, 0]], [1, 2], "bool") }),
        },
        {
          name: "a large padded gap does not count",
          kind: "edge",
          inputs: () => ({ logprobs: tf.tensor2d([[-0.2, -0.4, 0]]), oldLogp: tf.tensor2d([[-0.25, -0.3, -20]]), mask: tf.tensor2d([[1, 1, 0]], [1, 3], "bool") }),
        },
        {
          name: "log-probs near −105 (rare tokens): the worked example shifted by −105",
          kind: "edge",
          inputs: () => {
            const x = workedMismatch();
            const shift = (t: tf.Tensor) => {
              const shifted = tf.add(t, -105);
              t.dispose();
              return shifted;
            };
            return { ...x, logprobs: shift(x.logprobs as tf.Tensor), oldLogp: shift(x.oldLogp as tf.Tensor) };
          },
        },
        { ...rolloutCase("rollouts spanning versions 0…8", "random", 41, { B: 4, T: 12, currentVersion: 8 }), call: callMismatch },
        { ...rolloutCase("long responses, T=512", "random", 42, { B: 4, T: 512, currentVersion: 16 }), call: callMismatch },
        ...fixtureCases(LESSON, "mismatchKl"),
      ],
    },
    {
      name: "resolveLogps",
      file: "logp-sources.ts",
      tolerance: ELEMENTWISE,
      call: callSources,
      outputOrder: ["needsForwardPass", "behave", "proximal"],
      cases: [
        { name: "worked example: coupled PPO on the engine's log-probs", kind: "worked", inputs: () => workedSources(COUPLED, { recomputedLogp: null }) },
        { name: "worked example: coupled PPO, recompute_logprob", kind: "worked", inputs: () => workedSources(COUPLED_RECOMPUTE) },
        { name: "worked example: decoupled PPO, recompute", kind: "worked", inputs: () => workedSources(DECOUPLED("recompute")) },
        { name: "worked example: decoupled PPO, loglinear (no forward pass)", kind: "worked", inputs: () => workedSources(DECOUPLED("loglinear"), { recomputedLogp: null }) },
        {
          name: "the results are new tensors, never the batch's own (coupled PPO on the engine's log-probs)",
          kind: "edge",
          inputs: () => workedSources(COUPLED),
          call: aliasedOutputs,
          tolerance: EXACT,
          checks: "how many of behave and proximal are input tensors themselves (0: return clones)",
        },
        { name: "decoupled PPO, metrics: trains on the recomputed proximal policy", kind: "edge", inputs: () => workedSources(DECOUPLED("metrics")) },
        { name: "loglinear with a recomputed proximal policy present uses it as is", kind: "edge", inputs: () => workedSources(DECOUPLED("loglinear")) },
        { name: "coupled PPO ignores the method: loglinear, no recompute", kind: "edge", inputs: () => workedSources({ ...COUPLED, proxLogpMethod: "loglinear" }, { recomputedLogp: null }) },
        { name: "coupled PPO with recompute_logprob needs the pass whatever the method", kind: "edge", inputs: () => workedSources({ ...COUPLED_RECOMPUTE, proxLogpMethod: "loglinear" }) },
        errorCase("an unknown method is refused", () => workedSources({ ...COUPLED, proxLogpMethod: "approx" })),
        errorCase("recompute_logprob without a recomputation", () => workedSources(COUPLED_RECOMPUTE, { recomputedLogp: null })),
        errorCase("decoupled recompute without a recomputation", () => workedSources(DECOUPLED("recompute"), { recomputedLogp: null })),
        errorCase("decoupled metrics without a recomputation", () => workedSources(DECOUPLED("metrics"), { recomputedLogp: null })),
        errorCase("loglinear without versions", () => workedSources(DECOUPLED("loglinear"), { recomputedLogp: null, versions: null })),
        errorCase("loglinear without a current version", () => workedSources(DECOUPLED("loglinear"), { recomputedLogp: null, currentVersion: null })),
        errorCase("a NaN in the recomputed log-probs", () => workedSources(DECOUPLED("recompute"), { recomputedLogp: tf.tensor2d([[-1.1, Number.NaN, -0.5]]) })),
        errorCase("an −Inf in the engine's log-probs, coupled", () => workedSources(COUPLED, { inferenceLogp: tf.tensor2d([[-1.0, Number.NEGATIVE_INFINITY, -0.5]]) })),
        {
          name: "decoupled recompute with an −Inf in the engine's log-probs: only the proximal policy is checked",
          kind: "edge",
          inputs: () => workedSources(DECOUPLED("recompute"), { inferenceLogp: tf.tensor2d([[-1.0, Number.NEGATIVE_INFINITY, -0.5]]) }),
        },
        { name: "coupled, recompute_logprob (seed 51, B=4 T=12)", kind: "random", inputs: () => randomSources(51, { B: 4, T: 12, currentVersion: 8 }, COUPLED_RECOMPUTE) },
        { name: "decoupled recompute (seed 52, B=3 T=10)", kind: "random", inputs: () => randomSources(52, { B: 3, T: 10, currentVersion: 40, oldest: 10 }, DECOUPLED("recompute")) },
        { name: "decoupled loglinear (seed 53, B=4 T=512)", kind: "random", inputs: () => randomSources(53, { B: 4, T: 512, currentVersion: 16 }, DECOUPLED("loglinear"), false) },
        ...fixtureCases(LESSON, "resolveLogps"),
      ],
    },
  ],
};

export default grader;
