/**
 * Lesson 12 — Generation with a key/value cache: the loop of MiniMind's `generate`.
 *
 * Shapes: B rows, S prompt tokens (int32 ids), V vocabulary. The model is anything with
 * `forward(ids, { attentionMask, pastKv, useCache })` (lib/model/types.ts): MiniMindTS, or a
 * small stand-in in the grader. Read lessons/12-rope-and-kv-cache.md first.
 */
import * as tf from "../../lib/tf.js";
import type { CausalLm, GenerateOptions, KvCache } from "../../lib/model/types.js";

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
  // BEGIN SOLUTION
  const B = inputIds.shape[0];
  const eos = opts.eosTokenId === undefined ? 2 : opts.eosTokenId;
  const useCache = opts.useCache ?? true;
  const pick = opts.pickToken ?? greedyToken;
  let ids = tf.clone(inputIds);
  let mask = opts.attentionMask ? tf.clone(opts.attentionMask) : null;
  let past: KvCache | null = null;
  const finished = new Array<boolean>(B).fill(false);
  for (let step = 0; step < opts.maxNewTokens; step++) {
    const pastLen = past ? past[0].k.shape[1] : 0;
    const { chosen, cache } = tf.tidy(() => {
      const fresh = tf.slice(ids, [0, pastLen], [B, ids.shape[1] - pastLen]);
      const out = model.forward(fresh, { attentionMask: mask, pastKv: past, useCache });
      const [, S, V] = out.logits.shape;
      const last = tf.reshape(tf.slice(out.logits, [0, S - 1, 0], [B, 1, V]), [B, V]) as tf.Tensor2D;
      return { chosen: pick(last), cache: useCache ? out.pastKv : undefined };
    });
    const picked = Array.from(chosen.dataSync());
    chosen.dispose();
    const next = picked.map((t, b) => (finished[b] && eos !== null ? eos : t));
    const grown = tf.tidy(() => tf.concat([ids, tf.tensor2d(next, [B, 1], "int32")], 1));
    const grownMask = mask ? tf.tidy(() => tf.concat([mask!, tf.ones([B, 1], mask!.dtype)], 1) as tf.Tensor2D) : null;
    tf.dispose([ids, ...(mask ? [mask] : []), ...(past ?? []).flatMap((e) => [e.k, e.v])]);
    ids = grown;
    mask = grownMask;
    past = cache ?? null;
    if (eos !== null) {
      next.forEach((t, b) => (finished[b] = finished[b] || t === eos));
      if (finished.every(Boolean)) break;
    }
  }
  tf.dispose([...(mask ? [mask] : []), ...(past ?? []).flatMap((e) => [e.k, e.v])]);
  return ids as tf.Tensor2D;
  // END SOLUTION
}
