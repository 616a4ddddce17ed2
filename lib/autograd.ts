/**
 * Autograd helpers TensorFlow.js lacks.
 */
import * as tf from "./tf.js";

/** The custom-gradient op behind `stopGradient`: identity forward, zeros backward. */
const detach = tf.customGrad((x) => ({ value: tf.clone(x as tf.Tensor), gradFunc: (dy) => tf.zerosLike(dy) }));

/**
 * PyTorch's `.detach()`: the forward pass returns x unchanged; the backward pass sends no gradient
 * through it. TensorFlow.js has no stop-gradient op, so `tf.customGrad` builds one.
 */
export function stopGradient<T extends tf.Tensor>(x: T): T {
  return detach(x) as T;
}
