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
  // BEGIN SOLUTION
  return tf.tidy(() => {
    const [B, T, V] = studentLogits.shape;
    const rows = B * (T - 1);
    // The shift: logits at 0 … T−2 predict labels at 1 … T−1 (train_distillation.py:59, 64, 70).
    const student = tf.reshape(tf.slice(studentLogits, [0, 0, 0], [B, T - 1, V]), [rows, V]);
    // The teacher may know more tokens: keep the student's V (line 66), and keep it off the tape.
    const teacher = stopGradient(tf.reshape(tf.slice(teacherLogits, [0, 0, 0], [B, T - 1, V]), [rows, V]));
    const shifted = tf.reshape(tf.slice(labels, [0, 1], [B, T - 1]), [rows]);
    const mask = tf.cast(tf.notEqual(shifted, -100), "float32"); // [rows], 1 where the label counts
    const count = tf.sum(mask);

    // 1) Cross-entropy on the labels, at temperature 1, masked mean (lines 70-78).
    const safeLabels = tf.where(tf.cast(mask, "bool"), tf.cast(shifted, "int32"), tf.zerosLike(tf.cast(shifted, "int32")));
    const logQ = tf.logSoftmax(student, -1);
    const picked = tf.cast(tf.oneHot(safeLabels, V), "float32"); // int32 first: the wasm OneHot ignores a float dtype
    const tokenCe = tf.neg(tf.sum(tf.mul(logQ, picked), -1)); // [rows]
    const ce = tf.div(tf.sum(tf.mul(tokenCe, mask)), tf.add(count, 1e-8)) as tf.Scalar;

    // 2) T²·KL(p_teacher ‖ q_student) at temperature T, batch-mean over counted tokens (25-36, 84-88).
    const logP = tf.logSoftmax(tf.div(teacher, temperature), -1);
    const logQT = tf.logSoftmax(tf.div(student, temperature), -1);
    const tokenKl = tf.sum(tf.mul(tf.exp(logP), tf.sub(logP, logQT)), -1); // [rows]
    const kl = tf.div(tf.sum(tf.mul(tokenKl, mask)), tf.maximum(count, 1));
    const distill = tf.mul(kl, temperature * temperature) as tf.Scalar;

    // 3) The mix (line 93).
    const loss = tf.add(tf.mul(ce, alpha), tf.mul(distill, 1 - alpha)) as tf.Scalar;
    return { ce, distill, loss };
  });
  // END SOLUTION
}
