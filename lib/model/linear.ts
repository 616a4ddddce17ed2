/**
 * PyTorch's `nn.Linear` for tfjs, with PyTorch's weight layout.
 */
import * as tf from "../tf.js";

/**
 * y = x·Wᵀ (+ b), applied over the last dimension of `x`.
 *
 * `x`: [..., in] with rank ≥ 2; `weight`: [out, in] (PyTorch's layout, so weights copy across
 * unchanged); `bias`: [out]. Returns [..., out]. `x` is reshaped to [N, in] first because tfjs has
 * no gradient for a rank-3 × rank-2 matMul. The product takes W with its transpose flag, and so
 * do the two products of its gradient (∂rows = ∂y·W, ∂W = (∂y)ᵀ·rows): every backend reads a
 * transposed operand in place, on wasm the course's compiled product (lib/wasm-kernels.ts).
 *
 * Align with: model/model_minimind.py:100-103 (every projection is an `nn.Linear`)
 */
export function linear(x: tf.Tensor, weight: tf.Tensor2D, bias?: tf.Tensor1D): tf.Tensor {
  return tf.tidy(() => {
    const inFeatures = x.shape[x.shape.length - 1];
    const outFeatures = weight.shape[0];
    const rows = tf.reshape(x, [-1, inFeatures]);
    const projected = tf.matMul(rows, weight, false, true);
    const withBias = bias ? tf.add(projected, bias) : projected;
    return tf.reshape(withBias, [...x.shape.slice(0, -1), outFeatures]);
  });
}
