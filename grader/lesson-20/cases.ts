/**
 * Lesson 20 — Distillation. Cases for exercises/lesson-20/distillation.ts: the lesson's worked
 * example, edge cases, seeded random batches, and PyTorch fixtures from MiniMind's own lines
 * (grader/lesson-20/parity.py). The student trains through the loss, so it is graded on its
 * gradient with respect to the student's logits too, and on there being none for the teacher's.
 */
import * as tf from "../../lib/tf.js";
import { asGradientCase, fixturesWithGradient, gradientCall } from "../engine/gradients.js";
import { fixtureCases } from "../engine/fixtures.js";
import { Rng } from "../../lib/random.js";
import { ELEMENTWISE, LONG_REDUCTION } from "../engine/types.js";
import type { AnyFn, CaseDef, Inputs, LessonGrader, Tolerance } from "../engine/types.js";

const LESSON = "lesson-20";

const call = (fn: AnyFn, x: Inputs) => fn(x.studentLogits, x.teacherLogits, x.labels, x.alpha, x.temperature);
const studentGradient = gradientCall(call, "studentLogits", { pick: "loss" });
/**
 * d loss / d teacherLogits. The `0·Σ teacher` term keeps the teacher on the tape, so a learner who
 * froze the teacher by reading it out of the graph gets zeros, not "cannot compute gradient".
 */
const teacherGradient = (fn: AnyFn, x: Inputs) =>
  tf.tidy(() =>
    tf.grad((t: tf.Tensor) => {
      const out = call(fn, { ...x, teacherLogits: t }) as { loss: tf.Scalar };
      return tf.add(out.loss, tf.mul(0, tf.sum(t))) as tf.Scalar;
    })(x.teacherLogits as tf.Tensor),
  );
const STUDENT = "the gradient of `loss` with respect to the student's logits";
const TEACHER = "the gradient of `loss` with respect to the teacher's logits: zero, the teacher is a fixed target";

const long = (name: string): Tolerance | undefined => (name.includes("T=512") ? LONG_REDUCTION : undefined);

/** The worked example of lessons/20-distillation.md: B=1, T=4, V=3; two positions count. */
function worked(): Inputs {
  return {
    studentLogits: tf.tensor3d([[[1, 0, 0], [0, 2, 0], [0, 0, 0], [5, 5, 5]]]),
    teacherLogits: tf.tensor3d([[[2, 0, 0], [0, 1, 1], [1, 0, 3], [0, 0, 0]]]),
    labels: tf.tensor2d([[-100, 1, 2, -100]], undefined, "int32"),
    alpha: 0.5,
    temperature: 2,
  };
}

/**
 * A seeded batch with SFT-like labels: row 0 learns every position after the first, the others a
 * prompt of −100, an answer, then −100 padding (`empty` rows learn nothing).
 */
function batch(seed: number, B: number, T: number, V: number, Vt: number, alpha: number, temperature: number, opts: { empty?: number[]; scale?: number } = {}): Inputs {
  const rng = new Rng(seed);
  const labels = new Int32Array(B * T).fill(-100);
  for (let b = 0; b < B; b++) {
    if (opts.empty?.includes(b)) continue;
    const start = b === 0 ? 1 : rng.int(1, Math.max(2, Math.floor(T / 2)));
    const end = b === 0 ? T : rng.int(start + 1, T + 1);
    for (let t = start; t < end; t++) labels[b * T + t] = rng.int(0, V);
  }
  return {
    studentLogits: tf.tensor3d(rng.normals(B * T * V, 0, 1.5 * (opts.scale ?? 1)), [B, T, V]),
    teacherLogits: tf.tensor3d(rng.normals(B * T * Vt, 0, 2 * (opts.scale ?? 1)), [B, T, Vt]),
    labels: tf.tensor2d(labels, [B, T], "int32"),
    alpha,
    temperature,
  };
}

const valueCases: CaseDef[] = [
  { name: "worked example: B=1 T=4 V=3, α=0.5, T=2", kind: "worked", inputs: worked },
  { name: "MiniMind's defaults α=0.5 T=1.5 (seed 1, B=3 T=9 V=6)", kind: "random", inputs: () => batch(1, 3, 9, 6, 6, 0.5, 1.5) },
  { name: "a larger teacher vocabulary: Vt=11 over V=7 (seed 2, α=0.3 T=2)", kind: "random", inputs: () => batch(2, 2, 7, 7, 11, 0.3, 2) },
  { name: "pure cross-entropy α=1 (seed 3, T=3)", kind: "edge", inputs: () => batch(3, 2, 6, 5, 5, 1, 3) },
  { name: "pure distillation α=0, T=1 (seed 4)", kind: "edge", inputs: () => batch(4, 2, 6, 5, 5, 0, 1) },
  { name: "a row with no counted label among others (seed 5)", kind: "edge", inputs: () => batch(5, 3, 6, 4, 4, 0.5, 1.5, { empty: [1] }) },
  { name: "no label counts: everything is 0 (seed 6)", kind: "edge", inputs: () => batch(6, 2, 5, 4, 4, 0.5, 1.5, { empty: [0, 1] }) },
  { name: "a single position (T=1): nothing to predict, everything is 0", kind: "edge", inputs: () => batch(7, 2, 1, 4, 4, 0.5, 1.5, { empty: [0, 1] }) },
  { name: "teacher equal to the student: distill is 0 (α=0.2 T=1.5)", kind: "edge", inputs: () => sameTeacher() },
  { name: "long sequences T=512, V=32 (seed 8, α=0.5 T=1.5)", kind: "random", inputs: () => batch(8, 2, 512, 32, 32, 0.5, 1.5), tolerance: LONG_REDUCTION },
  {
    name: "logit spreads of several hundred (student std 90, teacher std 120; seed 10, α=0.5 T=1.5): probabilities underflow, the loss stays finite",
    kind: "edge",
    inputs: () => batch(10, 2, 6, 6, 6, 0.5, 1.5, { scale: 60 }),
    tolerance: LONG_REDUCTION,
  },
  {
    name: "multi-turn labels: a −100 between two answers is not counted (seed 11, α=0.5 T=2)",
    kind: "edge",
    inputs: () => {
      const x = batch(11, 2, 10, 5, 5, 0.5, 2);
      (x.labels as tf.Tensor).dispose();
      const labels = [
        [-100, -100, 3, 1, -100, -100, 2, 4, -100, -100],
        [-100, 1, 2, 2, -100, 0, 3, -100, -100, -100],
      ];
      return { ...x, labels: tf.tensor2d(labels, [2, 10], "int32") };
    },
  },
];

/** Student and teacher give the same logits: the KL term vanishes, the cross-entropy does not. */
function sameTeacher(): Inputs {
  const x = batch(9, 2, 6, 5, 5, 0.2, 1.5);
  (x.teacherLogits as tf.Tensor).dispose();
  return { ...x, teacherLogits: tf.clone(x.studentLogits as tf.Tensor) };
}

const studentGradientCases: CaseDef[] = valueCases
  .filter((c) => !c.name.startsWith("teacher equal"))
  .map((c) => asGradientCase(c, studentGradient, STUDENT));

const teacherGradientCases: CaseDef[] = [
  asGradientCase({ name: "worked example, d/d teacher", kind: "worked", inputs: worked }, teacherGradient, TEACHER),
  asGradientCase({ name: "pure distillation α=0 (seed 4), d/d teacher", kind: "edge", inputs: () => batch(4, 2, 6, 5, 5, 0, 1) }, teacherGradient, TEACHER),
  asGradientCase({ name: "Vt=11 over V=7 (seed 2), d/d teacher", kind: "random", inputs: () => batch(2, 2, 7, 7, 11, 0.3, 2) }, teacherGradient, TEACHER),
];

const grader: LessonGrader = {
  lesson: LESSON,
  exercises: [
    {
      name: "distillationLoss",
      file: "distillation.ts",
      tolerance: ELEMENTWISE,
      call,
      outputOrder: ["ce", "distill", "loss"],
      cases: [
        ...valueCases,
        ...studentGradientCases,
        ...teacherGradientCases,
        ...fixtureCases(LESSON, "distillationLoss", long),
        ...fixturesWithGradient(LESSON, "distillationLoss", studentGradient, STUDENT, "", long),
      ],
    },
  ],
};

export default grader;
