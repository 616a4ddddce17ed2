/**
 * Parametrised wrong versions of lesson 20's distillation loss. Each mutant file picks one flaw,
 * so every mutant differs from the reference in exactly one plausible way.
 */
import * as tf from "../../lib/tf.js";
import { stopGradient } from "../../lib/autograd.js";

export interface DistillFlaws {
  /** Position t compared with label t: the shift is missing. */
  noShift?: boolean;
  /** KL(q_student ‖ p_teacher) instead of KL(p_teacher ‖ q_student). */
  flippedKl?: boolean;
  /** The T² factor left out. */
  noTemperatureSquared?: boolean;
  /** The KL averaged over every position, counted or not. */
  klOverAllPositions?: boolean;
  /** The cross-entropy computed on logits divided by T as well. */
  ceAtTemperature?: boolean;
  /** The teacher's probabilities left on the gradient tape. */
  teacherOnTape?: boolean;
  /** α weights the distillation term and 1 − α the cross-entropy. */
  swappedAlpha?: boolean;
  /** Only the teacher is softened; the student's log-probs are taken at T = 1. */
  studentAtT1?: boolean;
  /** The student's log-probabilities as log(softmax(z)): −Infinity once a probability underflows (logit spreads beyond about 100). */
  logOfSoftmax?: boolean;
  /** The KL as Σ p·(log p − log q) with log p = log(softmax(teacher / T)): 0·(−Infinity) = NaN where a teacher probability underflows to 0. */
  klLogOfProbs?: boolean;
  /** The counted positions taken as one span, from the first counted label to the last: a −100 between two answers is counted. */
  maskAsSpan?: boolean;
}

/** 1 from each row's first counted label to its last, holes included (built off the tape: it is data). */
function spanMask(shifted: tf.Tensor1D, B: number, len: number): tf.Tensor1D {
  const labels = shifted.dataSync();
  const out = new Float32Array(B * len);
  for (let b = 0; b < B; b++) {
    const counted = Array.from({ length: len }, (_, t) => t).filter((t) => labels[b * len + t] !== -100);
    if (counted.length === 0) continue;
    for (let t = counted[0]; t <= counted[counted.length - 1]; t++) out[b * len + t] = 1;
  }
  return tf.tensor1d(out);
}

export function distillationLossVariant(f: DistillFlaws) {
  return (studentLogits: tf.Tensor3D, teacherLogits: tf.Tensor3D, labels: tf.Tensor2D, alpha: number, temperature: number) =>
    tf.tidy(() => {
      const [B, T, V] = studentLogits.shape;
      const len = f.noShift ? T : T - 1;
      const rows = B * len;
      const student = tf.reshape(tf.slice(studentLogits, [0, 0, 0], [B, len, V]), [rows, V]);
      const teacherRaw = tf.reshape(tf.slice(teacherLogits, [0, 0, 0], [B, len, V]), [rows, V]);
      const teacher = f.teacherOnTape ? teacherRaw : stopGradient(teacherRaw);
      const shifted = tf.reshape(tf.slice(labels, [0, f.noShift ? 0 : 1], [B, len]), [rows]);
      const mask = f.maskAsSpan ? spanMask(shifted as tf.Tensor1D, B, len) : tf.cast(tf.notEqual(shifted, -100), "float32");
      const logSoftmax = (z: tf.Tensor) => (f.logOfSoftmax ? tf.log(tf.softmax(z, -1)) : tf.logSoftmax(z, -1));
      const count = tf.sum(mask);
      const safe = tf.where(tf.cast(mask, "bool"), tf.cast(shifted, "int32"), tf.zeros([rows], "int32"));
      const logQ = logSoftmax(f.ceAtTemperature ? tf.div(student, temperature) : student);
      const tokenCe = tf.neg(tf.sum(tf.mul(logQ, tf.cast(tf.oneHot(safe as tf.Tensor1D, V), "float32")), -1));
      const ce = tf.div(tf.sum(tf.mul(tokenCe, mask)), tf.add(count, 1e-8));
      const logP = f.klLogOfProbs ? tf.log(tf.softmax(tf.div(teacher, temperature), -1)) : tf.logSoftmax(tf.div(teacher, temperature), -1);
      const logQT = logSoftmax(f.studentAtT1 ? student : tf.div(student, temperature));
      const tokenKl = f.flippedKl ? tf.sum(tf.mul(tf.exp(logQT), tf.sub(logQT, logP)), -1) : tf.sum(tf.mul(tf.exp(logP), tf.sub(logP, logQT)), -1);
      const kl = f.klOverAllPositions ? tf.div(tf.sum(tf.mul(tokenKl, mask)), Math.max(rows, 1)) : tf.div(tf.sum(tf.mul(tokenKl, mask)), tf.maximum(count, 1));
      const distill = f.noTemperatureSquared ? kl : tf.mul(kl, temperature * temperature);
      const [a, b] = f.swappedAlpha ? [1 - alpha, alpha] : [alpha, 1 - alpha];
      const loss = tf.add(tf.mul(ce, a), tf.mul(distill, b));
      return { ce: ce as tf.Scalar, distill: distill as tf.Scalar, loss: loss as tf.Scalar };
    });
}
