/**
 * Lesson 12 — Generation with a key/value cache: the loop of MiniMind's `generate`.
 *
 * Shapes: B rows, S prompt tokens (int32 ids), V vocabulary. The model is anything with
 * `forward(ids, { attentionMask, pastKv, useCache })` (lib/model/types.ts): MiniMindTS, or a
 * small stand-in in the grader. Read lessons/12-rope-and-kv-cache.md first.
 */
import * as tf from "../../lib/tf.js";
import type { CausalLm, GenerateOptions, KvCache } from "../../lib/model/types.js";
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-12`. Generated from
// solutions/ by `npm run stubs`; edit freely.

// The options of `generate`: declared in lib/model/types.ts, which the model uses too.
export type { GenerateOptions };

/** Greedy decoding: the most likely token of each row. */
export function greedyToken(lastLogits: tf.Tensor2D): tf.Tensor1D {
  return tf.argMax(lastLogits, -1) as tf.Tensor1D;
}

/**
 * Autoregressive generation, as MiniMind's `generate` loop does it. `inputIds`: [B, S] int32.
 *
 * Returns [B, S + n] int32: the prompt followed by the n ≤ maxNewTokens tokens of each row. It
 * stops early once every row has produced eosTokenId; a row that finished earlier continues with
 * eosTokenId. With a cache the model sees the whole prompt once and then one token per step; the
 * tokens are the same as without one. Every tensor made on the way is freed except the result.
 *
 * Align with: model/model_minimind.py:257-288
 */
export function generate(model: CausalLm, inputIds: tf.Tensor2D, opts: GenerateOptions): tf.Tensor2D {
  throw new NotImplementedError("lesson-12", "generate");
}
