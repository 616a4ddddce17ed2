/**
 * Lesson 18 — LoRA. Cases for the two functions of exercises/lesson-18/lora.ts: the lesson's worked
 * example, edge cases, seeded random layers, and PyTorch fixtures computed from MiniMind's own
 * lines (grader/lesson-18/parity.py). LoRA trains through both functions, so each is graded on its
 * gradients with respect to A and B as well as on its value.
 */
import * as tf from "../../lib/tf.js";
import { asGradientCase, fixturesWithGradient, gradientCall } from "../engine/gradients.js";
import { fixtureCases } from "../engine/fixtures.js";
import { Rng } from "../../lib/random.js";
import { ELEMENTWISE } from "../engine/types.js";
import type { AnyFn, CaseDef, Inputs, LessonGrader } from "../engine/types.js";

const LESSON = "lesson-18";

type Call = (fn: AnyFn, x: Inputs) => unknown;

const callLinear: Call = (fn, x) => fn(x.x, x.weight, x.loraA, x.loraB, x.alpha);
const callMerge: Call = (fn, x) => fn(x.weight, x.loraA, x.loraB, x.alpha);

/** Inputs hold `upstream` shaped like loraLinear's output and `upstreamW` shaped like mergeLora's. */
const gradient = (call: Call, wrt: "loraA" | "loraB", upstream = "upstream") => gradientCall(call, wrt, { upstream });
const checks = (wrt: string, of: string) => `the gradient of Σ upstream·${of} with respect to ${wrt}`;

/** The worked example of lessons/18-lora.md: a 2→2 layer, a rank-1 adapter, α = 2. */
function worked(): Inputs {
  return {
    x: tf.tensor2d([[1, 2], [0.5, -1]]),
    weight: tf.tensor2d([[1, 0.5], [-0.5, 1]]),
    loraA: tf.tensor2d([[0.2, 0.4]]),
    loraB: tf.tensor2d([[1], [-2]]),
    alpha: 2,
    upstream: tf.tensor2d([[1, 0], [0, 1]]),
    upstreamW: tf.tensor2d([[1, -1], [0.5, 2]]),
  };
}

/** A seeded layer in → out with a rank-r adapter (B trained away from 0 unless `fresh`). */
function layer(seed: number, xShape: number[], inF: number, outF: number, rank: number, alpha: number, fresh = false): Inputs {
  const rng = new Rng(seed);
  const rows = xShape.reduce((p, d) => p * d, 1);
  return {
    x: tf.tensor(rng.normals(rows * inF), [...xShape, inF]),
    weight: tf.tensor2d(rng.normals(outF * inF, 0, 0.5), [outF, inF]),
    loraA: tf.tensor2d(rng.normals(rank * inF, 0, 0.1), [rank, inF]),
    loraB: fresh ? tf.zeros([outF, rank]) : tf.tensor2d(rng.normals(outF * rank, 0, 0.3), [outF, rank]),
    alpha,
    upstream: tf.tensor(rng.normals(rows * outF), [...xShape, outF]),
    upstreamW: tf.tensor2d(rng.normals(outF * inF), [outF, inF]),
  };
}

/** The same layer cases for both functions (mergeLora ignores x and upstream). */
function layerCases(): CaseDef[] {
  return [
    { name: "seed 11, x [4, 8], square 8→8, r=2, α=16 (scale 8)", kind: "random", inputs: () => layer(11, [4], 8, 8, 2, 16) },
    { name: "seed 12, x [2, 6, 16], square 16→16, r=4, α=4 (MiniMind: scale 1)", kind: "random", inputs: () => layer(12, [2, 6], 16, 16, 4, 4) },
    { name: "seed 13, x [2, 5, 12], a non-square layer 12→20, r=3, α=1.5", kind: "random", inputs: () => layer(13, [2, 5], 12, 20, 3, 1.5) },
    { name: "seed 14, x [2, 512, 32], square 32→32, r=8, α=32 (scale 4)", kind: "random", inputs: () => layer(14, [2, 512], 32, 32, 8, 32) },
    { name: "a fresh adapter (B = 0): the layer is unchanged (seed 15, r=4, α=8)", kind: "edge", inputs: () => layer(15, [3], 8, 8, 4, 8, true) },
    { name: "rank 1 (seed 16, 6→6, α=1)", kind: "edge", inputs: () => layer(16, [2, 3], 6, 6, 1, 1) },
    { name: "full rank r = in = out = 4 (seed 17, α=2)", kind: "edge", inputs: () => layer(17, [5], 4, 4, 4, 2) },
  ];
}

/**
 * Gradient versions of the layer cases. A fresh adapter (B = 0) is LoRA's first step: A's gradient
 * is zero there but B's is not, so it stays in unless `fresh` is false (loraLinear's fixtures have one).
 */
function gradientCases(call: Call, of: string, upstream = "upstream", fresh = true): CaseDef[] {
  const cases = [{ name: "worked example", kind: "worked" as const, inputs: worked }, ...layerCases().filter((c) => fresh || !c.name.startsWith("a fresh"))];
  return (["loraA", "loraB"] as const).flatMap((wrt) => cases.map((c) => asGradientCase({ ...c, name: `${c.name}, d/d ${wrt}` }, gradient(call, wrt, upstream), checks(wrt, of))));
}

const grader: LessonGrader = {
  lesson: LESSON,
  exercises: [
    {
      name: "loraLinear",
      file: "lora.ts",
      tolerance: ELEMENTWISE,
      call: callLinear,
      cases: [
        { name: "worked example: a 2→2 layer, rank 1, α = 2", kind: "worked", inputs: worked },
        ...layerCases(),
        ...gradientCases(callLinear, "loraLinear(x, W, A, B, α)", "upstream", false),
        ...fixtureCases(LESSON, "loraLinear"),
        ...fixturesWithGradient(LESSON, "loraLinear", gradient(callLinear, "loraA"), checks("loraA", "loraLinear"), ".loraA"),
        ...fixturesWithGradient(LESSON, "loraLinear", gradient(callLinear, "loraB"), checks("loraB", "loraLinear"), ".loraB"),
      ],
    },
    {
      name: "mergeLora",
      file: "lora.ts",
      tolerance: ELEMENTWISE,
      call: callMerge,
      cases: [
        { name: "worked example: a 2→2 layer, rank 1, α = 2", kind: "worked", inputs: worked },
        ...layerCases(),
        ...gradientCases(callMerge, "mergeLora(W, A, B, α)", "upstreamW").filter((c) => !c.name.includes("x [2, 512")),
        ...fixtureCases(LESSON, "mergeLora"),
      ],
    },
  ],
};

export default grader;
