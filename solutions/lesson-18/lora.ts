/**
 * Lesson 18 — LoRA: a frozen linear layer plus a trainable low-rank update.
 *
 * Shapes: a linear layer maps `in` features to `out` features with a weight W [out, in] (PyTorch's
 * nn.Linear layout); a LoRA adapter of rank r is A [r, in] and B [out, r], and the update it adds
 * is ΔW = (α / r)·B·A. MiniMind has no α: its update is B·A, which is α = r here.
 * Read lessons/18-lora.md first; every function cites the MiniMind lines it mirrors at commit
 * d65ef2c (jingyaogong/minimind).
 */
import * as tf from "../../lib/tf.js";
import { linear } from "../../lib/model/linear.js";

/**
 * The output of a linear layer with a LoRA adapter beside it: the frozen layer's output plus the
 * adapter's, the adapter scaled by α / r (r = the number of rows of `loraA`).
 *
 * `x`: [..., in] float32 (rank ≥ 2); `weight`: [out, in]; `loraA`: [r, in]; `loraB`: [out, r].
 * Returns [..., out] float32, differentiable in `loraA` and `loraB`. With `loraB` all zeros (a
 * fresh adapter) the result equals the layer without the adapter. `alpha = r` is MiniMind's.
 *
 * Align with: model/model_lora.py:6-18, 29-30
 */
export function loraLinear(x: tf.Tensor, weight: tf.Tensor2D, loraA: tf.Tensor2D, loraB: tf.Tensor2D, alpha: number): tf.Tensor {
  // BEGIN SOLUTION
  return tf.tidy(() => {
    const rank = loraA.shape[0];
    const base = linear(x, weight); // [..., out]: the frozen layer
    const down = linear(x, loraA); // [..., r]: A squeezes `in` features into r
    const up = linear(down, loraB); // [..., out]: B expands them back
    return tf.add(base, tf.mul(up, alpha / rank));
  });
  // END SOLUTION
}

/**
 * The weight of a single linear layer that computes what `loraLinear` computes: the frozen weight
 * with the adapter's scaled update folded in.
 *
 * `weight`: [out, in]; `loraA`: [r, in]; `loraB`: [out, r]; `alpha`: α (α = r is MiniMind's).
 * Returns [out, in] float32, differentiable in `loraA` and `loraB` (the course's LoRA model runs
 * its forward pass through it). Inputs are left unchanged.
 *
 * Align with: model/model_lora.py:56-65
 */
export function mergeLora(weight: tf.Tensor2D, loraA: tf.Tensor2D, loraB: tf.Tensor2D, alpha: number): tf.Tensor2D {
  // BEGIN SOLUTION
  return tf.tidy(() => {
    const rank = loraA.shape[0];
    const delta = tf.matMul(loraB, loraA); // [out, r]·[r, in] = [out, in]
    return tf.add(weight, tf.mul(delta, alpha / rank)) as tf.Tensor2D;
  });
  // END SOLUTION
}
