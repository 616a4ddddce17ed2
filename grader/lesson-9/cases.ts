/**
 * Lesson 9 — Embedding, RMSNorm and the residual stream. Cases for exercises/lesson-9/rmsnorm.ts:
 * the lesson's worked example, edge cases (zero rows, inputs small enough for ε to matter, one
 * feature, the gradient at a row of zeros), seeded random tensors, gradients w.r.t. x and the
 * gain, and PyTorch fixtures from MiniMind's RMSNorm (grader/lesson-9/parity.py).
 */
import * as tf from "../../lib/tf.js";
import { linear } from "../../lib/model/linear.js";
import { fixtureCases } from "../engine/fixtures.js";
import { gradientCall } from "../engine/gradients.js";
import { Rng } from "../../lib/random.js";
import { ELEMENTWISE } from "../engine/types.js";
import type { AnyFn, CaseDef, Inputs, LessonGrader } from "../engine/types.js";

const LESSON = "lesson-9";

/** The numbers of lessons/09-embedding-rmsnorm-residual.md § Worked example. */
function workedInputs(): Inputs {
  return {
    x: tf.tensor2d([[1, -2, 3, 0], [0.5, 0.5, -0.5, 0.5]]),
    weight: tf.tensor1d([1, 0.5, 2, 1]),
    eps: 1e-6,
    sublayerWeight: tf.tensor2d([[0.5, 0, 0, 0], [0, -1, 0, 0], [0, 0, 0.25, 0], [1, 0, 0, 1]]),
  };
}

/** Seeded inputs: x of `shape` (×scale), a gain near 1, and a sublayer weight [H, H]. */
function randomInputs(seed: number, shape: number[], eps: number, scale = 1): Inputs {
  const rng = new Rng(seed);
  const H = shape[shape.length - 1];
  const size = shape.reduce((a, b) => a * b, 1);
  return {
    x: tf.tensor(rng.normals(size, 0, scale), shape),
    weight: tf.tensor1d(rng.normals(H, 1, 0.2)),
    eps,
    sublayerWeight: tf.tensor2d(rng.normals(H * H, 0, 1 / Math.sqrt(H)), [H, H]),
    upstream: tf.tensor(rng.normals(size), shape),
  };
}

const shapeName = (shape: number[]) => `[${shape.join(", ")}]`;

const randomCase = (name: string, kind: CaseDef["kind"], seed: number, shape: number[], eps: number, scale = 1): CaseDef => ({
  name: `${name} (seed ${seed}, x ${shapeName(shape)}, ε=${eps})`,
  kind,
  inputs: () => randomInputs(seed, shape, eps, scale),
});

/** Replaces row `row` of x (viewed as [rows, H]) with zeros. */
function withZeroRow(inputs: Inputs, row: number): Inputs {
  const x = inputs.x as tf.Tensor;
  const values = x.dataSync().slice();
  const H = x.shape[x.shape.length - 1];
  values.fill(0, row * H, (row + 1) * H);
  const zeroed = tf.tensor(values, x.shape);
  x.dispose();
  return { ...inputs, x: zeroed };
}

/** The sublayer every preNormResidual case uses: h ↦ tanh(h·Wᵀ), a stand-in for attention or the FFN. */
const tanhSublayer = (weight: tf.Tensor2D) => (h: tf.Tensor) => tf.tidy(() => tf.tanh(linear(h, weight)));

const callResidual = (fn: AnyFn, x: Inputs) =>
  fn(x.x, x.weight, x.eps, tanhSublayer(x.sublayerWeight as tf.Tensor2D));

const callNorm = (fn: AnyFn, x: Inputs) => fn(x.x, x.weight, x.eps);

const grader = {
  lesson: LESSON,
  exercises: [
    {
      name: "rmsNorm",
      file: "rmsnorm.ts",
      tolerance: ELEMENTWISE,
      call: callNorm,
      cases: [
        { name: "worked example: two rows of four features", kind: "worked", inputs: workedInputs },
        randomCase("a batch of sequences", "random", 1, [2, 3, 8], 1e-6),
        randomCase("MiniMind's width, H=768", "random", 2, [4, 768], 1e-6),
        randomCase("large activations (RMSNorm ignores scale)", "random", 3, [3, 16], 1e-6, 100),
        {
          ...randomCase("the gradient w.r.t. x", "random", 4, [2, 3, 8], 1e-6),
          call: gradientCall(callNorm, "x", { upstream: "upstream" }),
          checks: "the gradient of Σ(rmsNorm(x) ⊙ g) w.r.t. x",
        },
        {
          name: "a row of zeros stays zero, not NaN (seed 5, x [3, 8])",
          kind: "edge",
          inputs: () => withZeroRow(randomInputs(5, [3, 8], 1e-6), 1),
        },
        {
          ...randomCase("the gradient w.r.t. the gain", "random", 8, [2, 3, 8], 1e-6),
          call: gradientCall(callNorm, "weight", { upstream: "upstream" }),
          checks: "the gradient of Σ(rmsNorm(x) ⊙ g) w.r.t. weight",
        },
        {
          name: "the gradient at a row of zeros is finite: w·g/√ε (seed 9, x [3, 8] ×0.3, ε=1e-2)",
          kind: "edge",
          inputs: () => withZeroRow(randomInputs(9, [3, 8], 1e-2, 0.3), 1),
          call: gradientCall(callNorm, "x", { upstream: "upstream" }),
          checks: "the gradient of Σ(rmsNorm(x) ⊙ g) w.r.t. x where one row of x is all zeros",
        },
        randomCase("inputs so small that ε matters", "edge", 6, [2, 8], 1e-4, 0.01),
        randomCase("one feature: y = w·x/√(x²+ε)", "edge", 7, [5, 1], 1e-6),
        ...fixtureCases(LESSON, "rmsNorm"),
      ],
    },
    {
      name: "preNormResidual",
      file: "rmsnorm.ts",
      tolerance: ELEMENTWISE,
      call: callResidual,
      cases: [
        { name: "worked example: the same rows through h ↦ tanh(h·Wᵀ)", kind: "worked", inputs: workedInputs },
        randomCase("a batch of sequences", "random", 11, [2, 3, 8], 1e-6),
        randomCase("large activations: the residual keeps their scale", "random", 12, [3, 16], 1e-6, 30),
        {
          name: "a row of zeros passes through as sublayer(0) (seed 13, x [3, 8])",
          kind: "edge",
          inputs: () => withZeroRow(randomInputs(13, [3, 8], 1e-6), 0),
        },
        randomCase("a single position", "edge", 14, [1, 1, 8], 1e-6),
        ...fixtureCases(LESSON, "preNormResidual"),
      ],
    },
  ],
} satisfies LessonGrader;

export default grader;
