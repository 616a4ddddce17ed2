/**
 * The shapes that connect the model's pieces: the key/value cache and the causal language model
 * interface that generation drives.
 */
import type * as tf from "../tf.js";

/**
 * One layer's key/value cache (a type alias, not an interface, so tf.tidy can return it): keys after QK-norm and RoPE, values as projected, both before
 * `repeatKv`. [B, T, Hkv, D] with T the number of positions seen so far.
 * MiniMind's `past_kv = (xk, xv)` (model/model_minimind.py:120-123).
 */
export type KvEntry = {
  k: tf.Tensor4D;
  v: tf.Tensor4D;
};

/** One KvEntry per layer, in layer order (MiniMind's `presents`, model/model_minimind.py:220-229). */
export type KvCache = KvEntry[];

export interface ForwardOptions {
  /** [B, P + S]: 1 for a real token, 0 for padding, over the cached and the new positions. */
  attentionMask?: tf.Tensor2D | null;
  /** The cache from earlier calls; the new tokens sit at positions P … P + S − 1. */
  pastKv?: KvCache | null;
  /** Return the cache extended by these tokens. */
  useCache?: boolean;
}

export interface ForwardOutput {
  /** [B, S, V] */
  logits: tf.Tensor3D;
  /** The MoE load-balancing loss summed over layers (0 without MoE). */
  auxLoss: tf.Scalar;
  /** The extended cache when `useCache`, else undefined. */
  pastKv: KvCache | undefined;
}

/** Anything generation can drive: token ids in, next-token logits (and a cache) out. */
export interface CausalLm {
  forward(inputIds: tf.Tensor2D, opts?: ForwardOptions): ForwardOutput;
}
