/**
 * The shapes that connect the model's pieces: the key/value cache and the causal language model
 * interface that generation drives.
 */
import type * as tf from "../tf.js";
import type { RopeScaling } from "./config.js";

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

// The types of the lesson functions the model is assembled from, declared once here: lib/ never
// imports solutions/, and lessons 11-13 re-export these (test/model.test.ts checks the fit).

/** Lesson 11: one attention layer's projection weights, PyTorch layout [out, in]. */
export interface AttentionWeights {
  /** q_proj: [Hq·D, H] */
  wq: tf.Tensor2D;
  /** k_proj: [Hkv·D, H] */
  wk: tf.Tensor2D;
  /** v_proj: [Hkv·D, H] */
  wv: tf.Tensor2D;
  /** o_proj: [H, Hq·D] */
  wo: tf.Tensor2D;
  /** q_norm: RMSNorm gain over one head, [D] */
  qNorm: tf.Tensor1D;
  /** k_norm: RMSNorm gain over one head, [D] */
  kNorm: tf.Tensor1D;
}

/** Lesson 11: what one attention layer is told besides its input and weights. */
export interface AttentionOptions {
  numHeads: number;
  numKvHeads: number;
  /** [S, D]: the RoPE table rows of the new positions P … P + S − 1. */
  cos: tf.Tensor2D;
  sin: tf.Tensor2D;
  /** [B, T]: 1 for a real token, 0 for padding, over cached and new positions. */
  attentionMask?: tf.Tensor2D | null;
  /** Keys and values of the P earlier positions (already normed and rotated). */
  pastKv?: KvEntry | null;
  /** Return this layer's cache: past and new keys/values, before repeatKv. */
  useCache?: boolean;
  /** ε of the QK-norm RMSNorms (MiniMind's rms_norm_eps, default 1e-6). */
  eps?: number;
}

export interface AttentionResult {
  /** [B, S, H] */
  output: tf.Tensor3D;
  /** [B, T, Hkv, D] keys and values when `useCache`, else undefined. */
  presentKv: KvEntry | undefined;
}

/** Lesson 11's projections (q [B, S, Hq, D]; k, v [B, T, Hkv, D]), shared by lib/model/fast-attention.ts. */
export interface ProjectedQkv {
  q: tf.Tensor4D;
  k: tf.Tensor4D;
  v: tf.Tensor4D;
}

/** Lesson 12: the rotary table, [end, 2·⌊D/2⌋] each. */
export interface RopeTable {
  cos: tf.Tensor2D;
  sin: tf.Tensor2D;
}

/** Lesson 12: the options of `generate`. */
export interface GenerateOptions {
  /** At most this many new tokens per row. */
  maxNewTokens: number;
  /** Rows stop at this token; null never stops early. MiniMind's default is 2. */
  eosTokenId?: number | null;
  /** [B, S]: 1 for prompt tokens, 0 for (left) padding. Extended by a 1 for every new token. */
  attentionMask?: tf.Tensor2D | null;
  /** Feed only the new token and reuse the cache (default true); false recomputes every prefix. */
  useCache?: boolean;
  /**
   * Chooses each row's next token from its last logits [B, V], returning [B] int32. Default:
   * greedy argmax (MiniMind's do_sample=False). Lesson 3's sampler plugs in here.
   */
  pickToken?: (lastLogits: tf.Tensor2D) => tf.Tensor1D;
}

/** Lesson 13: one SwiGLU feed-forward's weights. */
export interface FfnWeights {
  /** [I, H]: the branch that goes through SiLU. */
  gate: tf.Tensor2D;
  /** [I, H]: the linear branch it gates. */
  up: tf.Tensor2D;
  /** [H, I]: back to the residual width. */
  down: tf.Tensor2D;
}

/** Lesson 13: the router and the experts of one MoE layer. */
export interface MoeWeights {
  /** [E, H]: one routing logit per expert. */
  gate: tf.Tensor2D;
  /** E experts, each a SwiGLU feed-forward. */
  experts: FfnWeights[];
}

export interface MoeOptions {
  /** k: experts each token is sent to (numExpertsPerTok). */
  topK: number;
  /** Rescale the k chosen probabilities to sum to 1. */
  normTopkProb: boolean;
  /** α of the load-balancing loss; 0 turns it off. */
  routerAuxLossCoef: number;
  /** The auxiliary loss exists only in training mode. */
  training: boolean;
}

export interface MoeResult {
  /** [..., H], the shape of x. */
  output: tf.Tensor;
  /** Scalar: the load-balancing loss (0 unless training with α > 0). */
  auxLoss: tf.Scalar;
}

/** Lesson 3: MiniMind's sampling knobs, and the seed of the course's Rng. */
export interface SampleOptions {
  temperature?: number;
  topK?: number;
  topP?: number;
  repetitionPenalty?: number;
  previousTokens?: tf.Tensor1D | tf.Tensor2D;
  seed: number;
}

/** The functions MiniMindTS is assembled from, each the graded exercise of one lesson. */
export interface ModelPieces {
  rmsNorm: (x: tf.Tensor, weight: tf.Tensor1D, eps: number) => tf.Tensor;
  causalLmLoss: (logits: tf.Tensor3D, labels: tf.Tensor2D, ignoreIndex?: number) => tf.Scalar;
  attention: (x: tf.Tensor3D, weights: AttentionWeights, opts: AttentionOptions) => AttentionResult;
  ropeFrequencies: (dim: number, end: number, base?: number, ropeScaling?: RopeScaling | null) => RopeTable;
  generate: (model: CausalLm, inputIds: tf.Tensor2D, opts: GenerateOptions) => tf.Tensor2D;
  feedForward: (x: tf.Tensor, w: FfnWeights) => tf.Tensor;
  moeFeedForward: (x: tf.Tensor, w: MoeWeights, opts: MoeOptions) => MoeResult;
  sampleNextToken: (logits: tf.Tensor1D | tf.Tensor2D, opts: SampleOptions) => tf.Tensor;
}

export type ProjectQkv = (x: tf.Tensor3D, weights: AttentionWeights, opts: AttentionOptions) => ProjectedQkv;

/**
 * Lesson 14's `clipGradNorm` (its signature; lib/ never imports solutions/): every gradient scaled
 * by min(1, maxNorm / (‖g‖ + 1e-6)) for the global L2 norm ‖g‖, returned with ‖g‖ before clipping.
 * Training code gets it through lib/resolver.ts (the learner's once it passes).
 */
export type ClipGradNorm = (grads: tf.Tensor[], maxNorm: number) => { grads: tf.Tensor[]; totalNorm: tf.Scalar };
