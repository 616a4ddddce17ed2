/**
 * Lesson 20 — Knowledge distillation: a student trained on the labels and on a teacher's
 * softened distributions at once.
 *
 * Shapes: B sequences of T positions; the student's vocabulary has V tokens, the teacher's
 * Vt ≥ V (its first V tokens are the student's). Labels are SFT labels (lesson 5): token ids, −100
 * where nothing is learned. Read lessons/20-distillation.md first; every function cites the
 * MiniMind lines it mirrors at commit d65ef2c (jingyaogong/minimind).
 */
import * as tf from "../../lib/tf.js";
import { stopGradient } from "../../lib/autograd.js";
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-20`. Generated from
// solutions/ by `npm run stubs`; edit freely.

export interface DistillationLoss {
  /** Cross-entropy of the student on the labels, a mean over the counted tokens. */
  ce: tf.Scalar;
  /** T²·KL(teacher ‖ student) at temperature T, a mean over the counted tokens. */
  distill: tf.Scalar;
  /** α·ce + (1 − α)·distill: what the student minimises. */
  loss: tf.Scalar;
}

/**
 * MiniMind's distillation objective for one batch of full-length model outputs.
 *
 * `studentLogits`: [B, T, V]; `teacherLogits`: [B, T, Vt], Vt ≥ V; `labels`: [B, T] int32 with
 * −100 at ignored positions. Position t's logits predict label t + 1, and only positions whose
 * label counts take part. Returns float32 scalars; all three are 0 when no label counts. The
 * gradient reaches `studentLogits` only: the teacher is a fixed target. Inputs are not changed.
 *
 * Align with: trainer/train_distillation.py:25-36, 51-93
 */
export function distillationLoss(studentLogits: tf.Tensor3D, teacherLogits: tf.Tensor3D, labels: tf.Tensor2D, alpha: number, temperature: number): DistillationLoss {
  throw new NotImplementedError("lesson-20", "distillationLoss");
}
