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
 * Root-mean-square normalisation over the last dimension, then a learned per-feature gain (RMSNorm:
 * no mean subtracted, no bias).
 *
 * `x`: [..., H] float32; `weight`: [H] (MiniMind initialises it to ones); `eps` > 0. Returns x's
 * shape, float32, differentiable in x and weight. A row of zeros stays zero (no NaN).
 *
 * Align with: model/model_minimind.py:50-60
 */
export function rmsNorm(x: tf.Tensor, weight: tf.Tensor1D, eps: number): tf.Tensor {
  throw new NotImplementedError("lesson-9", "rmsNorm");
}

/**
 * One pre-norm residual branch of a transformer block: the sublayer reads an RMS-normalised copy
 * of the stream, and its output is added back to the stream, which is itself never normalised.
 *
 * `x`: [..., H]; `normWeight`: [H]; `sublayer` maps [..., H] to [..., H] (attention or the
 * feed-forward in MiniMind). Returns [..., H].
 *
 * Align with: model/model_minimind.py:186-194
 */
export function preNormResidual(x: tf.Tensor, normWeight: tf.Tensor1D, eps: number, sublayer: (h: tf.Tensor) => tf.Tensor): tf.Tensor {
  throw new NotImplementedError("lesson-9", "preNormResidual");
}
