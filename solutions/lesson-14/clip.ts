/**
 * Lesson 14 — gradient clipping by global norm, as torch.nn.utils.clip_grad_norm_ does it before
 * every optimiser step of MiniMind's loop.
 *
 * Read lessons/14-lr-accumulation-precision.md first.
 */
import * as tf from "../../lib/tf.js";

/** What `clipGradNorm` returns. */
export interface ClippedGrads {
  /** The gradients after clipping, same shapes and order as the input. */
  grads: tf.Tensor[];
  /** The global L2 norm of all gradients together, measured before clipping (a scalar). */
  totalNorm: tf.Scalar;
}

/**
 * Rescales a model's gradients (one float32 tensor per parameter, any shapes) so that their global
 * L2 norm is at most `maxNorm`; gradients already within it are returned unchanged (never scaled
 * up). Every tensor is scaled by the same factor, so the update keeps its direction. Matches
 * PyTorch, including its 1e-6 guard on the norm. An empty list gives [] and a norm of 0. New
 * tensors; the inputs are not changed.
 *
 * Align with: trainer/train_pretrain.py:43-44 (torch.nn.utils.clip_grad_norm_, torch 1.13)
 */
export function clipGradNorm(grads: tf.Tensor[], maxNorm: number): ClippedGrads {
  // BEGIN SOLUTION
  return tf.tidy(() => {
    if (grads.length === 0) return { grads: [], totalNorm: tf.scalar(0) };
    // One norm per tensor, then the norm of those norms: the same number as the norm of everything concatenated.
    const perTensor = tf.stack(grads.map((g) => tf.norm(g)));
    const totalNorm = tf.norm(perTensor) as tf.Scalar;
    const scale = tf.minimum(tf.div(maxNorm, tf.add(totalNorm, 1e-6)), 1);
    return { grads: grads.map((g) => tf.mul(g, scale)), totalNorm };
  });
  // END SOLUTION
}
