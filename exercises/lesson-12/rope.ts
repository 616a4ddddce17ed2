/**
 * Lesson 12 — Rotary position embeddings (RoPE): the cos/sin table and the rotation itself.
 *
 * Shapes: B sequences, S positions, H heads, D = head_dim (even). The table has one row per
 * position and D columns: the D/2 frequencies, written twice (once for each half of a head).
 * Read lessons/12-rope-and-kv-cache.md first; every function cites the MiniMind lines it mirrors
 * at commit d65ef2c (jingyaogong/minimind).
 */
import * as tf from "../../lib/tf.js";
import type { RopeScaling } from "../../lib/model/config.js";
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-12`. Generated from
// solutions/ by `npm run stubs`; edit freely.

/** The rotary table: row p holds cos(p·f) and sin(p·f) (times the YaRN attention factor). */
export interface RopeTable {
  /** [end, 2·⌊D/2⌋] float32 */
  cos: tf.Tensor2D;
  /** [end, 2·⌊D/2⌋] float32 */
  sin: tf.Tensor2D;
}

/**
 * The cos/sin table of rotary embeddings for positions 0 … end−1.
 *
 * f_i = 1 / base^(2i/D) for i = 0 … ⌊D/2⌋−1. With `ropeScaling` (YaRN) and end > the original
 * context L: f_i ← f_i·((1 − γ_i) + γ_i / factor), with the ramp
 *   γ_i = clamp((i − low) / max(high − low, 0.001), 0, 1),  idx(b) = D·ln(L / (2πb)) / (2·ln base),
 *   low = max(⌊idx(betaFast)⌋, 0),  high = min(⌈idx(betaSlow)⌉, ⌊D/2⌋ − 1)   (float64 arithmetic)
 * The attention factor a multiplies both tables whenever `ropeScaling` is given (else a = 1).
 *   cos[p] = [cos(p·f), cos(p·f)]·a,   sin[p] = [sin(p·f), sin(p·f)]·a
 * Every step is float32, as in PyTorch: the angle is p·f rounded to float32.
 *
 * Align with: model/model_minimind.py:62-78
 */
export function ropeFrequencies(dim: number, end: number, base = 1e6, ropeScaling: RopeScaling | null = null): RopeTable {
  throw new NotImplementedError("lesson-12", "ropeFrequencies");
}

/** The rotated queries and keys, same shapes as the inputs. */
export interface RotatedQk {
  q: tf.Tensor4D;
  k: tf.Tensor4D;
}

/**
 * Rotates queries and keys by their positions.
 *
 * `q`: [B, S, Hq, D], `k`: [B, S, Hkv, D], `cos`, `sin`: [S, D] (rows of the table for these
 * positions). With rotate_half(x) = [−x₂, x₁] for the halves x = [x₁, x₂] of the last axis:
 *   q' = q·cos + rotate_half(q)·sin,   k' = k·cos + rotate_half(k)·sin
 * cos/sin broadcast over batch and heads (MiniMind's unsqueeze at dim 1 turns [S, D] into
 * [S, 1, D]). Dimension j is paired with j + D/2: each pair turns by the angle p·f_j.
 *
 * Align with: model/model_minimind.py:80-84
 */
export function applyRope(q: tf.Tensor4D, k: tf.Tensor4D, cos: tf.Tensor2D, sin: tf.Tensor2D): RotatedQk {
  throw new NotImplementedError("lesson-12", "applyRope");
}
