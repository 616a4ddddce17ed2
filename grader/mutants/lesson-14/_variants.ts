/**
 * Parametrised wrong versions of lesson 14's functions: each mutant file picks one flaw, so every
 * mutant differs from the reference in exactly one plausible way.
 */
import * as tf from "../../../lib/tf.js";
import type { ClippedGrads } from "../../../solutions/lesson-14/clip.js";

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
}

export function clipVariant(f: ClipFlaws) {
  return (grads: tf.Tensor[], maxNorm: number): ClippedGrads =>
    tf.tidy(() => {
      if (grads.length === 0) return { grads: [], totalNorm: tf.scalar(0) };
      const sq = tf.addN(grads.map((g) => tf.sum(tf.square(g))));
      const norm = (f.noSqrt ? sq : tf.sqrt(sq)) as tf.Scalar;
      const factor = (n: tf.Tensor) => {
        const raw = tf.div(maxNorm, tf.add(n, 1e-6));
        return f.scaleUp ? raw : tf.minimum(raw, 1);
      };
      const clipped = f.perTensor ? grads.map((g) => tf.mul(g, factor(tf.norm(g)))) : grads.map((g) => tf.mul(g, factor(norm)));
      const totalNorm = f.normAfter ? (tf.sqrt(tf.addN(clipped.map((g) => tf.sum(tf.square(g))))) as tf.Scalar) : norm;
      return { grads: clipped, totalNorm };
    });
}
