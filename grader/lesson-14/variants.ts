/**
 * Parametrised wrong versions of lesson 14's functions: each mutant file picks one flaw, so every
 * mutant differs from the reference in exactly one plausible way.
 */
import * as tf from "../../lib/tf.js";
import type { ClippedGrads } from "../../solutions/lesson-14/clip.js";

export interface LrFlaws {
  /** 0.5·(1 + cos): decays to zero instead of to lr/10. */
  noFloor?: boolean;
  /** cos(step/total): π forgotten. */
  noPi?: boolean;
  /** A straight line from lr to lr/10. */
  linear?: boolean;
  /** Steps past `total` held at the floor. */
  clamped?: boolean;
}

export function lrVariant(f: LrFlaws) {
  return (step: number, total: number, lr: number): number => {
    const s = f.clamped ? Math.min(step, total) : step;
    if (f.linear) return lr * (1 - (0.9 * s) / total);
    const cos = Math.cos(((f.noPi ? 1 : Math.PI) * s) / total);
    return f.noFloor ? lr * 0.5 * (1 + cos) : lr * (0.1 + 0.45 * (1 + cos));
  };
}

export interface ClipFlaws {
  /** Each tensor clipped by its own norm. */
  perTensor?: boolean;
  /** The factor not capped at 1: small gradients are scaled up to maxNorm. */
  scaleUp?: boolean;
  /** The squared norm used as the norm. */
  noSqrt?: boolean;
  /** The norm reported after clipping instead of before. */
  normAfter?: boolean;
  /** Scaled by maxNorm / ‖g‖ only when ‖g‖ > maxNorm: PyTorch's 1e-6 guard (maxNorm / (‖g‖ + 1e-6), capped at 1) left out. */
  noEpsGuard?: boolean;
  /** The norm taken in JavaScript as Math.hypot(...every value): the spread overflows the call stack on a real model's gradient. */
  hypotSpread?: boolean;
  /** Right values, no tf.tidy: every intermediate tensor leaks. */
  noTidy?: boolean;
}

export function clipVariant(f: ClipFlaws) {
  if (f.noTidy) {
    return (grads: tf.Tensor[], maxNorm: number): ClippedGrads => {
      if (grads.length === 0) return { grads: [], totalNorm: tf.scalar(0) };
      const totalNorm = tf.norm(tf.stack(grads.map((g) => tf.norm(g)))) as tf.Scalar;
      const scale = tf.minimum(tf.div(maxNorm, tf.add(totalNorm, 1e-6)), 1);
      return { grads: grads.map((g) => tf.mul(g, scale)), totalNorm };
    };
  }
  if (f.hypotSpread) {
    return (grads: tf.Tensor[], maxNorm: number): ClippedGrads =>
      tf.tidy(() => {
        const norm = Math.hypot(...grads.flatMap((g) => Array.from(g.dataSync())));
        const scale = Math.min(maxNorm / (norm + 1e-6), 1);
        return { grads: grads.map((g) => tf.mul(g, scale)), totalNorm: tf.scalar(norm) };
      });
  }
  return (grads: tf.Tensor[], maxNorm: number): ClippedGrads =>
    tf.tidy(() => {
      if (grads.length === 0) return { grads: [], totalNorm: tf.scalar(0) };
      const sq = tf.addN(grads.map((g) => tf.sum(tf.square(g))));
      const norm = (f.noSqrt ? sq : tf.sqrt(sq)) as tf.Scalar;
      const factor = (n: tf.Tensor) => {
        if (f.noEpsGuard) return tf.where(tf.greater(n, maxNorm), tf.div(maxNorm, n), tf.onesLike(n));
        const raw = tf.div(maxNorm, tf.add(n, 1e-6));
        return f.scaleUp ? raw : tf.minimum(raw, 1);
      };
      const clipped = f.perTensor ? grads.map((g) => tf.mul(g, factor(tf.norm(g)))) : grads.map((g) => tf.mul(g, factor(norm)));
      const totalNorm = f.normAfter ? (tf.sqrt(tf.addN(clipped.map((g) => tf.sum(tf.square(g))))) as tf.Scalar) : norm;
      return { grads: clipped, totalNorm };
    });
}
