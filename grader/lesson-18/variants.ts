/**
 * Parametrised wrong versions of lesson 18's functions. Each mutant file picks one flaw, so every
 * mutant differs from the reference in exactly one plausible way.
 */
import * as tf from "../../lib/tf.js";
import { linear } from "../../lib/model/linear.js";

export type ScaleFlaw =
  /** α ignored: the update is added at scale 1 (right only when α = r, MiniMind's case). */
  | "no-scale"
  /** r / α instead of α / r. */
  | "inverted-scale"
  /** α alone, never divided by the rank. */
  | "alpha-only";

export interface LoraFlaws {
  scale?: ScaleFlaw;
  /** The scale applied to the frozen layer's output too: (xWᵀ + x·Aᵀ·Bᵀ)·α/r. */
  scaleWholeOutput?: boolean;
  /** The adapter's output read into plain numbers and back: right values, no gradient to A or B. */
  detached?: boolean;
  /** ΔW transposed: Aᵀ·Bᵀ ([in, out]) instead of B·A ([out, in]). */
  transposedDelta?: boolean;
  /** The update subtracted from W. */
  subtract?: boolean;
  /** A fresh adapter (B all zeros) skipped as a shortcut: the value is right, but B gets no gradient, so training never starts. */
  skipFresh?: boolean;
}

/** B is all zeros (read off the tape: the check itself is data). */
const isFresh = (loraB: tf.Tensor): boolean => (loraB.dataSync() as Float32Array).every((v) => v === 0);

function scaleOf(flaws: LoraFlaws, alpha: number, rank: number): number {
  if (flaws.scale === "no-scale") return 1;
  if (flaws.scale === "inverted-scale") return rank / alpha;
  if (flaws.scale === "alpha-only") return alpha;
  return alpha / rank;
}

/** Values kept, gradient tape cut. */
const constant = (t: tf.Tensor): tf.Tensor => tf.tensor(t.dataSync(), t.shape);

export function loraLinearVariant(flaws: LoraFlaws) {
  return (x: tf.Tensor, weight: tf.Tensor2D, loraA: tf.Tensor2D, loraB: tf.Tensor2D, alpha: number): tf.Tensor =>
    tf.tidy(() => {
      const scale = scaleOf(flaws, alpha, loraA.shape[0]);
      const base = linear(x, weight);
      if (flaws.skipFresh && isFresh(loraB)) return base;
      let up = linear(linear(x, loraA), loraB);
      if (flaws.detached) up = constant(up);
      if (flaws.scaleWholeOutput) return tf.mul(tf.add(base, up), scale);
      return tf.add(base, tf.mul(up, scale));
    });
}

export function mergeLoraVariant(flaws: LoraFlaws) {
  return (weight: tf.Tensor2D, loraA: tf.Tensor2D, loraB: tf.Tensor2D, alpha: number): tf.Tensor2D =>
    tf.tidy(() => {
      const scale = scaleOf(flaws, alpha, loraA.shape[0]);
      if (flaws.skipFresh && isFresh(loraB)) return tf.clone(weight);
      let delta: tf.Tensor = flaws.transposedDelta ? tf.matMul(loraA, loraB, true, true) : tf.matMul(loraB, loraA);
      if (flaws.detached) delta = constant(delta);
      const scaled = tf.mul(delta, scale);
      return (flaws.subtract ? tf.sub(weight, scaled) : tf.add(weight, scaled)) as tf.Tensor2D;
    });
}
