/**
 * Lesson 9 — Embedding, RMSNorm and the residual stream.
 *
 * Shapes: x is [..., H] (usually [B, T, H]: B sequences, T positions, H = hiddenSize); every
 * operation here works on the last dimension only. Read lessons/09-embedding-rmsnorm-residual.md
 * first; every function cites the MiniMind lines it mirrors at commit d65ef2c
 * (jingyaogong/minimind).
 */
import * as tf from "../../lib/tf.js";
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-9`. Generated from
// solutions/ by `npm run stubs`; edit freely.

/**
 * Root-mean-square normalisation over the last dimension, then a learned per-feature gain.
 *
 * `x`: [..., H] float32; `weight`: [H] (MiniMind initialises it to ones); `eps` > 0.
 *   y = w ⊙ x · (mean_H(x²) + ε)^(−1/2)
 * No mean is subtracted (that would be LayerNorm) and there is no bias. MiniMind computes the norm
 * in float32 (`x.float()`) and casts the result back to x's dtype; in tfjs x is already float32.
 * A row of zeros stays zero: ε keeps the square root away from 0.
 *
 * Align with: model/model_minimind.py:50-60
 */
export function rmsNorm(x: tf.Tensor, weight: tf.Tensor1D, eps: number): tf.Tensor {
  throw new NotImplementedError("lesson-9", "rmsNorm");
}

/**
 * One pre-norm residual branch of a transformer block: normalise, transform, add back.
 *
 * `x`: [..., H]; `normWeight`: [H]; `sublayer` maps [..., H] to [..., H] (attention or the
 * feed-forward in MiniMind).
 *   out = x + sublayer(rmsNorm(x, normWeight, eps))
 * The residual adds the un-normalised x: the stream itself is never normalised, only the copy
 * each sublayer reads.
 *
 * Align with: model/model_minimind.py:186-194
 */
export function preNormResidual(x: tf.Tensor, normWeight: tf.Tensor1D, eps: number, sublayer: (h: tf.Tensor) => tf.Tensor): tf.Tensor {
  throw new NotImplementedError("lesson-9", "preNormResidual");
}
