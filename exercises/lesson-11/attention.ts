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
import type { AttentionOptions, AttentionResult, AttentionWeights } from "../../lib/model/types.js";
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

// The weights, options and result of `attention`: declared in lib/model/types.ts, which the model uses too.
export type { AttentionOptions, AttentionResult, AttentionWeights };

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
