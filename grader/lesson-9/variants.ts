/**
 * Parametrised wrong versions of lesson 9's functions. Each mutant file picks one flaw, so every
 * mutant differs from the reference in exactly one plausible way.
 */
import * as tf from "../../lib/tf.js";

export interface RmsNormFlaws {
  /** x / (√mean(x²) + ε): ε added after the square root. */
  epsOutsideSqrt?: boolean;
  /** x / √mean(x²): no ε at all. */
  noEps?: boolean;
  /** Subtracts the mean first (LayerNorm without bias). */
  centred?: boolean;
  /** One RMS over every element of the tensor instead of one per row. */
  wholeTensor?: boolean;
  /** The learned gain w is never applied. */
  noWeight?: boolean;
  /** ε as a floor, rsqrt(max(mean(x²), ε)), instead of added inside the square root. */
  epsAsFloor?: boolean;
  /** The gain applied as constants copied out of the tensor (tf.tensor(weight.dataSync())): no gradient reaches it. */
  gainOffTape?: boolean;
  /** RMS from the Euclidean norm, √((‖x‖/√H)² + ε): the same values, but tf.norm's gradient at a row of zeros is 0/0 = NaN. */
  viaNorm?: boolean;
}

export function rmsNormVariant(flaws: RmsNormFlaws) {
  return (x: tf.Tensor, weight: tf.Tensor1D, eps: number): tf.Tensor =>
    tf.tidy(() => {
      const gain = flaws.gainOffTape ? tf.tensor1d(weight.dataSync()) : weight;
      if (flaws.epsAsFloor) return tf.mul(gain, tf.mul(x, tf.rsqrt(tf.maximum(tf.mean(tf.square(x), -1, true), eps))));
      if (flaws.viaNorm) {
        const H = x.shape[x.shape.length - 1];
        const rms = tf.div(tf.norm(x, "euclidean", -1, true), Math.sqrt(H));
        return tf.mul(gain, tf.div(x, tf.sqrt(tf.add(tf.square(rms), eps))));
      }
      const centred = flaws.centred ? tf.sub(x, tf.mean(x, -1, true)) : x;
      const meanSquare = flaws.wholeTensor ? tf.mean(tf.square(centred)) : tf.mean(tf.square(centred), -1, true);
      const epsilon = flaws.noEps || flaws.epsOutsideSqrt ? 0 : eps;
      let denominator = tf.sqrt(tf.add(meanSquare, epsilon));
      if (flaws.epsOutsideSqrt) denominator = tf.add(denominator, eps);
      const normalised = tf.div(centred, denominator);
      return flaws.noWeight ? normalised : tf.mul(gain, normalised);
    });
}

export interface ResidualFlaws {
  /** Post-norm: rmsNorm(x + sublayer(x)), the original Transformer's order. */
  postNorm?: boolean;
  /** Returns sublayer(rmsNorm(x)) without adding x back. */
  noResidual?: boolean;
  /** Adds the normalised h back instead of x: h + sublayer(h). */
  addNormalised?: boolean;
  /** Forgets the norm: x + sublayer(x). */
  noNorm?: boolean;
  /** The norm's ε fixed at MiniMind's config default 1e-5 instead of the `eps` passed in. */
  fixedEps?: boolean;
}

const reference = rmsNormVariant({});

export function residualVariant(flaws: ResidualFlaws) {
  return (x: tf.Tensor, normWeight: tf.Tensor1D, eps: number, sublayer: (h: tf.Tensor) => tf.Tensor): tf.Tensor =>
    tf.tidy(() => {
      if (flaws.postNorm) return reference(tf.add(x, sublayer(x)), normWeight, eps);
      const h = flaws.noNorm ? x : reference(x, normWeight, flaws.fixedEps ? 1e-5 : eps);
      const branch = sublayer(h);
      if (flaws.noResidual) return branch;
      return tf.add(flaws.addNormalised ? h : x, branch);
    });
}
