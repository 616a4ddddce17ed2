/**
 * Lesson 11 — Attention: MiniMind's grouped-query self-attention, one layer.
 *
 * Shapes: B sequences, S new positions, P cached positions (T = P + S keys in all), H = hidden
 * size, Hq query heads, Hkv key/value heads (Hq = Hkv·nRep), D = head_dim. Weights use PyTorch's
 * layout [out, in]. Read lessons/11-attention.md first; every function cites the MiniMind lines it
 * mirrors at commit d65ef2c (jingyaogong/minimind).
 *
 * `rmsNorm` (lesson 9) and `applyRope` (lesson 12) are imported from the reference solutions, so
 * this lesson works whatever your progress on those two.
 */
import * as tf from "../../lib/tf.js";
import { linear } from "../../lib/model/linear.js";
import type { KvEntry } from "../../lib/model/types.js";
import type * as Lesson9Rmsnorm from "../lesson-9/rmsnorm.js";
import type * as Lesson12Rope from "../lesson-12/rope.js";
import { resolveFunction } from "../../lib/resolver.js";
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-11`. Generated from
// solutions/ by `npm run stubs`; edit freely.

// Other lessons' functions, through the course's resolver (lib/resolver.ts): their reference
// solutions, so this lesson grades the same whatever your progress on those.
const { fn: rmsNorm } = await resolveFunction<typeof Lesson9Rmsnorm.rmsNorm>("lesson-9", "rmsNorm", { useReference: true });
const { fn: applyRope } = await resolveFunction<typeof Lesson12Rope.applyRope>("lesson-12", "applyRope", { useReference: true });

/**
 * Grouped-query attention's sharing of key/value heads, as MiniMind lays it out: query head h
 * reads kv head ⌊h / nRep⌋.
 *
 * `x`: [B, T, Hkv, D] → [B, T, Hkv·nRep, D], same dtype. With nRep = 1 it returns `x` itself, as
 * MiniMind does.
 *
 * Align with: model/model_minimind.py:86-89
 */
export function repeatKv(x: tf.Tensor4D, nRep: number): tf.Tensor4D {
  throw new NotImplementedError("lesson-11", "repeatKv");
}

/** The projection weights of one attention layer, PyTorch layout. */
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

/**
 * One grouped-query self-attention layer, as MiniMind's explicit (non-fused) path computes it:
 * QK-norm, RoPE at positions P … P + S − 1, causal over the P cached and S new keys, padded keys
 * (attentionMask 0) pushed to −1e9 rather than −∞. `x`: [B, S, H] float32. Returns `output`
 * [B, S, H] and, with `useCache`, `presentKv`: past and new keys/values [B, T, Hkv, D], normed and
 * rotated, before repeatKv. No cache (P = 0) and no mask are the common case.
 *
 * Align with: model/model_minimind.py:111-134
 */
export function attention(x: tf.Tensor3D, weights: AttentionWeights, opts: AttentionOptions): AttentionResult {
  throw new NotImplementedError("lesson-11", "attention");
}
