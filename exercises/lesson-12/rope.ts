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
 * The cos/sin table of rotary embeddings for positions 0 … end−1 (`dim` = D, `base` = θ).
 *
 * Returns two float32 [end, 2·⌊D/2⌋] tables: row p holds cos (or sin) of p times each of the
 * ⌊D/2⌋ frequencies, the half written twice, as MiniMind lays it out. With `ropeScaling` (YaRN)
 * both tables are multiplied by its attention factor, and the frequencies are rescaled only when
 * end > originalMaxPositionEmbeddings. Float32 as in PyTorch: each angle is rounded to float32.
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
 * Rotates queries and keys by their positions, in MiniMind's rotate_half convention.
 *
 * `q`: [B, S, Hq, D], `k`: [B, S, Hkv, D] float32; `cos`, `sin`: [S, D], the table rows of these
 * S positions, shared by every batch row and head. Returns q and k rotated, same shapes;
 * differentiable in q and k. Position 0 (cos = 1, sin = 0) leaves a vector unchanged.
 *
 * Align with: model/model_minimind.py:80-84
 */
export function applyRope(q: tf.Tensor4D, k: tf.Tensor4D, cos: tf.Tensor2D, sin: tf.Tensor2D): RotatedQk {
  throw new NotImplementedError("lesson-12", "applyRope");
}
