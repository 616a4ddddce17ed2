/**
 * Knowledge distillation on MiniMindTS (MiniMind's trainer/train_distillation.py): a frozen
 * teacher's logits and the labels both train a student, through lesson 20's `distillationLoss`
 * (the learner's when it passes grading, else the reference).
 */
import * as tf from "../tf.js";
import { resolveFunctions, type FunctionChoice, type ResolveOptions } from "../resolver.js";
import type { MiniMindTS } from "./model.js";
import { stepOn, type VariableStepResult } from "./step.js";
import type { AdamW } from "./train.js";
import type { ClipGradNorm } from "./types.js";

/** Lesson 20's function and lesson 14's clipping (their signatures; lib/ never imports solutions/). */
export interface DistillFunctions {
  clipGradNorm: ClipGradNorm;
  distillationLoss: (
    studentLogits: tf.Tensor3D,
    teacherLogits: tf.Tensor3D,
    labels: tf.Tensor2D,
    alpha: number,
    temperature: number,
  ) => { ce: tf.Scalar; distill: tf.Scalar; loss: tf.Scalar };
}

export async function resolveDistillFunctions(opts: ResolveOptions = {}): Promise<{ fns: DistillFunctions; choices: FunctionChoice[] }> {
  return resolveFunctions<DistillFunctions>({ distillationLoss: "lesson-20", clipGradNorm: "lesson-14" }, opts);
}

export interface DistillOptions {
  /** Weight of the label cross-entropy; 1 − α goes to the teacher term (MiniMind: 0.5). */
  alpha: number;
  /** Softening temperature (MiniMind: 1.5). */
  temperature: number;
  gradClip?: number;
}

/**
 * One distillation step: the teacher's logits without a tape, then the student's loss, backward,
 * clip and AdamW over the student's parameters only. `extras` holds ce and distill.
 *
 * Align with: trainer/train_distillation.py:56-102
 */
export function distillStep(
  student: MiniMindTS,
  teacher: MiniMindTS,
  optimizer: AdamW,
  inputIds: tf.Tensor2D,
  labels: tf.Tensor2D,
  lr: number,
  fns: DistillFunctions,
  opts: DistillOptions,
): VariableStepResult {
  const teacherLogits = tf.tidy(() => teacher.forward(inputIds).logits);
  try {
    return stepOn(
      student.trainableVariables(),
      optimizer,
      (extras) => {
        const { logits, auxLoss } = student.forward(inputIds, { training: true });
        const out = fns.distillationLoss(logits, teacherLogits, labels, opts.alpha, opts.temperature);
        extras.ce = out.ce;
        extras.distill = out.distill;
        return tf.add(out.loss, tf.mul(auxLoss, opts.alpha)) as tf.Scalar; // MoE aux joins the CE term (line 79)
      },
      lr,
      fns.clipGradNorm,
      opts.gradClip ?? 1.0,
    );
  } finally {
    teacherLogits.dispose();
  }
}
