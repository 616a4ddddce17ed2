/**
 * PyTorch's `nn.Linear` for tfjs, with PyTorch's weight layout.
 */
import * as tf from "../tf.js";

/**
 * ∂W = (∂y)ᵀ·rows, [out, in], transposing whichever side copies fewer numbers: ∂y itself
 * (N·out), or rows and the small result ((rowsᵀ·∂y)ᵀ: N·in + in·out).
 */
function weightGradient(dy: tf.Tensor2D, rows: tf.Tensor2D): tf.Tensor2D {
  const [N, outFeatures] = dy.shape;
  const inFeatures = rows.shape[1];
  if (N * outFeatures <= N * inFeatures + inFeatures * outFeatures) return tf.matMul(tf.transpose(dy), rows);
  return tf.transpose(tf.matMul(tf.transpose(rows), dy)) as tf.Tensor2D;
}

/**
 * rows·Wᵀ for rows [N, in] and W [out, in], with a gradient written out by hand.
 *
 * Every product is a plain 2-D matMul with no transpose flag, the fast path of the wasm backend
 * (XNNPACK); a transposed or batched matMul there falls back to a slow loop, and tfjs's own
 * matMul gradient uses transpose flags. The transposes are explicit instead (cheap copies):
 *   y = rows·(Wᵀ),   ∂rows = ∂y·W,   ∂W = (∂y)ᵀ·rows
 */
const matMulByTransposed = tf.customGrad((rowsIn, weightIn, save) => {
  const rows = rowsIn as tf.Tensor2D;
  const weight = weightIn as tf.Tensor2D;
  (save as tf.GradSaveFunc)([rows, weight]);
  return {
    value: tf.matMul(rows, tf.transpose(weight)),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [savedRows, savedWeight] = saved as tf.Tensor2D[];
      return [tf.matMul(dy as tf.Tensor2D, savedWeight), weightGradient(dy as tf.Tensor2D, savedRows)];
    },
  };
});

/**
 * y = x·Wᵀ (+ b), applied over the last dimension of `x`.
 *
 * `x`: [..., in] with rank ≥ 2; `weight`: [out, in] (PyTorch's layout, so weights copy across
 * unchanged); `bias`: [out]. Returns [..., out]. `x` is reshaped to [N, in] first because tfjs has
 * no gradient for a rank-3 × rank-2 matMul.
 *
 * Align with: model/model_minimind.py:100-103 (every projection is an `nn.Linear`)
 */
export function linear(x: tf.Tensor, weight: tf.Tensor2D, bias?: tf.Tensor1D): tf.Tensor {
  return tf.tidy(() => {
    const inFeatures = x.shape[x.shape.length - 1];
    const outFeatures = weight.shape[0];
    const rows = tf.reshape(x, [-1, inFeatures]);
    const projected = matMulByTransposed(rows, weight) as tf.Tensor2D;
    const withBias = bias ? tf.add(projected, bias) : projected;
    return tf.reshape(withBias, [...x.shape.slice(0, -1), outFeatures]);
  });
}
