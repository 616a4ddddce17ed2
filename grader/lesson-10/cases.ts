/**
 * Lesson 10 — The forward pass and the loss shift. Cases for exercises/lesson-10/loss.ts: the
 * lesson's worked example, edge cases (nothing counted, one position, a custom ignore index, the
 * ignore index left out, logits of 100+ and log-probabilities below −100, ignored labels with holes),
 * seeded random batches with prompt and padding labels ignored, gradients w.r.t. the logits, and
 * PyTorch fixtures from MiniMind's loss lines (grader/lesson-10/parity.py).
 */
import * as tf from "../../lib/tf.js";
import { fixtureCases } from "../engine/fixtures.js";
import { gradientCall } from "../engine/gradients.js";
import { Rng } from "../../lib/random.js";
import { ELEMENTWISE, LONG_REDUCTION } from "../engine/types.js";
import type { AnyFn, CaseDef, Inputs, LessonGrader, Tolerance } from "../engine/types.js";

const LESSON = "lesson-10";
const IGNORE = -100;

/** The batch of lessons/10-forward-and-loss-shift.md § Worked example (B=2, T=4, V=4). */
function workedInputs(): Inputs {
  return {
    logits: tf.tensor3d([
      [[1, 0, 2, 0], [0, 1, 0, 0], [2, 1, 0, -1], [0, 0, 0, 0]],
      [[0, 0, 1, 0], [1, 1, 1, 1], [0, 2, 0, 0], [3, 0, 0, 0]],
    ]),
    labels: tf.tensor2d([[IGNORE, 2, 1, 3], [0, 3, IGNORE, IGNORE]], undefined, "int32"),
    ignoreIndex: IGNORE,
  };
}

/**
 * A seeded batch: each row ignores a prompt prefix and a padding suffix of random lengths
 * (row 0 ignores nothing); `ignoreAll` ignores every label.
 */
function randomInputs(seed: number, B: number, T: number, V: number, opts: { ignoreAll?: boolean; ignoreIndex?: number } = {}): Inputs {
  const rng = new Rng(seed);
  const ignoreIndex = opts.ignoreIndex ?? IGNORE;
  const labels = new Int32Array(B * T);
  for (let b = 0; b < B; b++) {
    const promptLen = b === 0 ? 0 : rng.int(0, T - 1);
    const padFrom = b === 0 ? T : rng.int(promptLen, T);
    for (let t = 0; t < T; t++) {
      const ignored = opts.ignoreAll || t < promptLen || t >= padFrom;
      labels[b * T + t] = ignored ? ignoreIndex : rng.int(0, V - 1);
    }
  }
  return {
    logits: tf.tensor3d(rng.normals(B * T * V, 0, 2), [B, T, V]),
    labels: tf.tensor2d(labels, [B, T], "int32"),
    ignoreIndex,
  };
}

const randomCase = (
  name: string,
  kind: CaseDef["kind"],
  seed: number,
  [B, T, V]: [number, number, number],
  opts: { ignoreAll?: boolean; ignoreIndex?: number; tolerance?: Tolerance } = {},
): CaseDef => ({
  name: `${name} (seed ${seed}, B=${B} T=${T} V=${V})`,
  kind,
  inputs: () => randomInputs(seed, B, T, V, opts),
  tolerance: opts.tolerance,
});

const callLoss = (fn: AnyFn, x: Inputs) => fn(x.logits, x.labels, x.ignoreIndex);

/** ∂loss/∂logits: what backpropagation starts from. */
const gradientCase = (c: CaseDef): CaseDef => ({ ...c, call: gradientCall(callLoss, "logits"), checks: "the gradient of the loss w.r.t. the logits" });

const grader: LessonGrader = {
  lesson: LESSON,
  exercises: [
    {
      name: "causalLmLoss",
      file: "loss.ts",
      tolerance: ELEMENTWISE,
      call: callLoss,
      cases: [
        { name: "worked example: 4 counted predictions out of 6", kind: "worked", inputs: workedInputs },
        gradientCase({ name: "gradient of the worked example: zero at each row's last position and where the next label is ignored", kind: "edge", inputs: workedInputs }),
        randomCase("prompt and padding labels ignored", "random", 1, [3, 12, 16]),
        randomCase("every label counted in one row, few in others", "random", 2, [5, 7, 9]),
        randomCase("MiniMind's vocabulary, V=6400", "random", 3, [2, 16, 6400], { tolerance: LONG_REDUCTION }),
        randomCase("long sequences, T=512", "random", 4, [2, 512, 8], { tolerance: LONG_REDUCTION }),
        gradientCase(randomCase("gradient, ragged ignores", "random", 5, [3, 6, 11])),
        randomCase("every label ignored: 0/0 is NaN, as in PyTorch", "edge", 6, [2, 5, 7], { ignoreAll: true }),
        randomCase("one position: nothing to predict, NaN", "edge", 7, [3, 1, 5]),
        randomCase("two positions: exactly one prediction per row", "edge", 8, [1, 2, 5]),
        randomCase("a different ignore index (the pad id 0)", "edge", 9, [3, 8, 6], { ignoreIndex: 0 }),
        {
          name: "the ignore index left out: −100 by default, so label 0 is an ordinary class (labels [−100, 0, 2], seed 10)",
          kind: "edge",
          call: (fn, x) => fn(x.logits, x.labels),
          inputs: () => ({ logits: tf.tensor3d(new Rng(10).normals(3 * 5, 0, 1), [1, 3, 5]), labels: tf.tensor2d([[IGNORE, 0, 2]], undefined, "int32") }),
        },
        {
          name: "logits of 100 and 120 (rows [100, 20, 15] and [40, 120, 35]) scored at their largest class: exp(100) overflows float32, log-softmax does not",
          kind: "edge",
          inputs: () => ({
            logits: tf.tensor3d([[[100, 20, 15], [40, 120, 35], [1, 2, 3]]]),
            labels: tf.tensor2d([[IGNORE, 0, 1]], undefined, "int32"),
            ignoreIndex: IGNORE,
          }),
        },
        {
          name: "targets 115 and 130 below their row's max (log-probabilities below −100): softmax underflows to 0, log-softmax does not",
          kind: "edge",
          inputs: () => ({
            logits: tf.tensor3d([[[0, -110, 5], [-130, 0, 0], [1, 2, 3]]]),
            labels: tf.tensor2d([[IGNORE, 1, 0]], undefined, "int32"),
            ignoreIndex: IGNORE,
          }),
        },
        {
          name: "ignored labels with holes (two assistant spans around a user turn) and a pretraining row counted from position 0 up to its right padding",
          kind: "edge",
          inputs: () => ({
            logits: tf.tensor3d(new Rng(11).normals(2 * 10 * 7, 0, 2), [2, 10, 7]),
            labels: tf.tensor2d(
              [
                [IGNORE, IGNORE, 3, 4, IGNORE, IGNORE, 5, 6, 2, IGNORE],
                [1, 4, 4, 2, 5, IGNORE, IGNORE, IGNORE, IGNORE, IGNORE],
              ],
              undefined,
              "int32",
            ),
            ignoreIndex: IGNORE,
          }),
        },
        ...fixtureCases(LESSON, "causalLmLoss"),
        ...fixtureCases(LESSON, "causalLmLossGradient").map(gradientCase),
      ],
    },
  ],
};

export default grader;
