/**
 * Lesson 14 — Learning rate, accumulation and precision. Cases for exercises/lesson-14/: the
 * schedule and the two accumulation decisions (each case evaluates the function over a list of
 * steps and compares the whole list), and gradient clipping on real gradients of a small network.
 * Fixtures come from MiniMind's own lines and torch.nn.utils.clip_grad_norm_ (grader/lesson-14/parity.py).
 */
import * as tf from "../../lib/tf.js";
import { fixtureCases } from "../engine/fixtures.js";
import { Rng } from "../../lib/random.js";
import { ELEMENTWISE, EXACT, LONG_REDUCTION } from "../engine/types.js";
import type { AnyFn, CaseDef, Inputs, LessonGrader, Tolerance } from "../engine/types.js";

const LESSON = "lesson-14";

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** cosineLr over every step of `inputs.steps`, as one float32 vector. */
const lrCall = (fn: AnyFn, x: Inputs) => tf.tensor1d((x.steps as number[]).map((s) => fn(s, x.total, x.lr) as number), "float32");
/** shouldStepOptimizer over `inputs.steps`, as 0/1 int32. */
const stepCall = (fn: AnyFn, x: Inputs) => tf.tensor1d((x.steps as number[]).map((s) => (fn(s, x.accumulationSteps) === true ? 1 : 0)), "int32");
/** shouldFlushTail over each [lastStep, startStep, accumulationSteps] of `inputs.epochs`, as 0/1 int32. */
const flushCall = (fn: AnyFn, x: Inputs) =>
  tf.tensor1d((x.epochs as number[][]).map(([last, start, k]) => (fn(last, start, k) === true ? 1 : 0)), "int32");

const lrCase = (name: string, kind: CaseDef["kind"], steps: number[], total: number, lr: number): CaseDef => ({ name, kind, inputs: () => ({ steps, total, lr }) });
const stepCase = (name: string, kind: CaseDef["kind"], steps: number[], accumulationSteps: number): CaseDef => ({ name, kind, inputs: () => ({ steps, accumulationSteps }) });
const flushCase = (name: string, kind: CaseDef["kind"], epochs: number[][]): CaseDef => ({ name, kind, inputs: () => ({ epochs }) });

function randomLr(seed: number): CaseDef {
  const rng = new Rng(seed);
  const total = rng.int(1, 5000);
  const lr = rng.uniform(1e-5, 1e-2);
  const steps = Array.from({ length: 64 }, () => rng.int(0, total));
  return lrCase(`random steps of T=${total}, lr=${lr.toExponential(2)} (seed ${seed})`, "random", steps, total, lr);
}

function randomEpochs(seed: number): CaseDef {
  const rng = new Rng(seed);
  const epochs = Array.from({ length: 40 }, () => {
    const k = rng.int(1, 8);
    const start = rng.next() < 0.5 ? 0 : rng.int(0, 30);
    return [start + rng.int(0, 20), start, k];
  });
  return flushCase(`40 random epochs: last, start, K (seed ${seed})`, "random", epochs);
}

/** Real gradients: of a seeded two-layer network's squared error with respect to its three parameters. */
function networkGrads(seed: number, inDim: number, hidden: number, outDim: number, batch: number, scale: number): tf.Tensor[] {
  const rng = new Rng(seed);
  const t = (shape: number[], std: number) => tf.tensor(rng.normals(shape.reduce((p, d) => p * d, 1), 0, std), shape);
  const [w1, b1, w2] = [t([inDim, hidden], scale), t([hidden], scale), t([hidden, outDim], scale)];
  const x = t([batch, inDim], 1);
  const y = t([batch, outDim], 1);
  const grads = tf.grads((a: tf.Tensor, b: tf.Tensor, c: tf.Tensor) => tf.mean(tf.square(tf.sub(tf.matMul(tf.relu(tf.add(tf.matMul(x, a), b)), c), y))))([w1, b1, w2]);
  tf.dispose([w1, b1, w2, x, y]);
  return grads;
}

const clipCase = (name: string, kind: CaseDef["kind"], grads: () => tf.Tensor[], maxNorm: number, tolerance?: Tolerance): CaseDef => ({
  name,
  kind,
  inputs: () => ({ grads: grads(), maxNorm }),
  tolerance,
});

/**
 * clipGradNorm on [big, ...small], with the big result cut down to 64 evenly spaced entries: the
 * point of the case is the size of the input, and a whole [768, 768] result (times every known
 * mistake's) would make the frozen expectations of a student edition tens of megabytes.
 */
function sampledBigCall(fn: AnyFn, x: Inputs): unknown {
  const r = fn(x.grads, x.maxNorm) as { grads: tf.Tensor[]; totalNorm: tf.Scalar };
  if (!Array.isArray(r?.grads) || !(r.grads[0] instanceof tf.Tensor)) return r;
  const [big, ...grads] = r.grads;
  const bigSample = tf.tidy(() => tf.gather(tf.reshape(big, [-1]), tf.range(0, 64 * 9216, 9216, "int32")));
  big.dispose();
  return { totalNorm: r.totalNorm, grads, bigSample };
}

/** A q_proj-sized gradient of MiniMind's 768-wide model ([768, 768], 589,824 numbers), filled by a cheap deterministic pattern. */
function bigGradient(): tf.Tensor {
  const n = 768 * 768;
  const data = new Float32Array(n);
  for (let i = 0; i < n; i++) data[i] = 0.01 * Math.sin(0.37 * i + 1);
  return tf.tensor2d(data, [768, 768]);
}

const grader: LessonGrader = {
  lesson: LESSON,
  exercises: [
    {
      name: "cosineLr",
      file: "schedule.ts",
      tolerance: ELEMENTWISE,
      call: lrCall,
      cases: [
        lrCase("worked example: T=10, lr=1 (the factor itself), steps 0-10", "worked", range(0, 10), 10, 1),
        lrCase("T=1: the peak, then the floor", "edge", [0, 1], 1, 1e-3),
        lrCase("past the end (steps 10-20 of T=10): the cosine comes back up", "edge", range(10, 20), 10, 1e-3),
        lrCase("lr = 0: zero everywhere", "edge", [0, 3, 7], 7, 0),
        lrCase("MiniMind's scale: T=44,160, lr=5e-4", "edge", [0, 1, 11040, 22080, 33120, 44159, 44160], 44160, 5e-4),
        randomLr(1),
        randomLr(2),
        randomLr(3),
        ...fixtureCases(LESSON, "cosineLr"),
      ],
    },
    {
      name: "shouldStepOptimizer",
      file: "schedule.ts",
      tolerance: EXACT,
      call: stepCall,
      cases: [
        stepCase("worked example: K=4, micro-batches 1-10", "worked", range(1, 10), 4),
        stepCase("K=1: every micro-batch steps", "edge", range(1, 6), 1),
        stepCase("K larger than the epoch: never inside it", "edge", range(1, 5), 8),
        stepCase("resumed at step 13 of K=8 (steps 14-33)", "edge", range(14, 33), 8),
        stepCase("K=3, steps 1-512", "random", range(1, 512), 3),
        stepCase("K=7, steps 1-100", "random", range(1, 100), 7),
        ...fixtureCases(LESSON, "shouldStepOptimizer"),
      ],
    },
    {
      name: "shouldFlushTail",
      file: "schedule.ts",
      tolerance: EXACT,
      call: flushCall,
      cases: [
        flushCase("worked example: 10 micro-batches with K=4, then 12 with K=4", "worked", [
          [10, 0, 4],
          [12, 0, 4],
        ]),
        flushCase("a resumed epoch that ran nothing (last = start)", "edge", [
          [5, 5, 4],
          [0, 0, 3],
          [7, 7, 1],
        ]),
        flushCase("resumed epochs: the group count runs from step 1, not from the resume point", "edge", [
          [8, 3, 4],
          [9, 3, 4],
          [12, 5, 8],
          [16, 5, 8],
        ]),
        flushCase("K=1 never leaves a tail", "edge", [
          [1, 0, 1],
          [17, 4, 1],
        ]),
        randomEpochs(1),
        randomEpochs(2),
        ...fixtureCases(LESSON, "shouldFlushTail"),
      ],
    },
    {
      name: "clipGradNorm",
      file: "clip.ts",
      tolerance: ELEMENTWISE,
      call: (fn: AnyFn, x: Inputs) => fn(x.grads, x.maxNorm),
      outputOrder: ["totalNorm", "grads", "bigSample"],
      cases: [
        clipCase("worked example: gradients [3, 0] and [4] (norm 5), maxNorm 1", "worked", () => [tf.tensor1d([3, 0]), tf.tensor1d([4])], 1),
        clipCase("worked example: the same gradients under maxNorm 10 are unchanged", "worked", () => [tf.tensor1d([3, 0]), tf.tensor1d([4])], 10),
        clipCase("no gradients at all", "edge", () => [], 1),
        clipCase("all-zero gradients stay zero", "edge", () => [tf.zeros([2, 3]), tf.zeros([4])], 1),
        clipCase("one tensor with most of the norm: every tensor gets the same factor", "edge", () => [tf.tensor2d([[30, -40]]), tf.tensor1d([0.3, 0.4]), tf.tensor3d([[[0.1], [-0.2]]])], 5),
        clipCase("small gradients are not scaled up (norm 0.05, maxNorm 1)", "edge", () => [tf.tensor1d([0.03]), tf.tensor1d([0.04])], 1),
        clipCase("real gradients of a 2-layer network (8→32→4), maxNorm 1 (seed 1)", "random", () => networkGrads(1, 8, 32, 4, 16, 1), 1),
        clipCase("real gradients, large weights (seed 2, maxNorm 0.5)", "random", () => networkGrads(2, 16, 64, 8, 32, 3), 0.5),
        clipCase("real gradients below the limit (seed 3, maxNorm 100)", "random", () => networkGrads(3, 4, 8, 2, 8, 0.5), 100),
        clipCase(
          "tiny gradients (norm 2e-6) under maxNorm 1e-6: PyTorch's +1e-6 guard makes the factor 1/3, not 1/2 (relative tolerance)",
          "edge",
          () => [tf.tensor1d([1.2e-6]), tf.tensor2d([[1.6e-6, 0]])],
          1e-6,
          { rtol: 1e-5, atol: 1e-13 },
        ),
        {
          ...clipCase("a real model's size: one [768, 768] gradient (589,824 numbers) and two small ones, maxNorm 1", "random", () => [bigGradient(), tf.tensor1d([0.5, -0.25]), tf.ones([8])], 1, LONG_REDUCTION),
          call: sampledBigCall,
          checks: "totalNorm, the two small gradients, and 64 evenly spaced entries of the clipped [768, 768] one (`bigSample`)",
        },
        ...fixtureCases(LESSON, "clipGradNorm"),
      ],
    },
  ],
};

export default grader;
