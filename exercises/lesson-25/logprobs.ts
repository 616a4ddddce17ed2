/**
 * Lesson 25 — the log-probability of each generated token under a model, from its logits.
 *
 * Shapes: B sequences, T tokens each (prompt then response), L logit positions (L = T for a full
 * forward pass, L = nKeep + 1 when the model was asked for the last nKeep + 1 positions only),
 * V vocabulary entries.
 * Read lessons/25-reward-logprob-kl.md first; MiniMind is cited at commit d65ef2c.
 */
import * as tf from "../../lib/tf.js";
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-25`. Generated from
// solutions/ by `npm run stubs`; edit freely.

/**
 * log π(token) for the last `nKeep` tokens of each sequence, under the model whose logits these are,
 * sampled at `temperature` (the distribution is softmax(logits / T); T = 1 is the plain model).
 *
 * `logits`: [B, L, V] float32 (the full pass, or its last positions); `inputIds`: [B, T] int32.
 * Returns [B, nKeep] float32, entries ≤ 0, differentiable in `logits`. Needs L ≥ nKeep + 1, T ≥ nKeep
 * and temperature > 0. nKeep ≤ 0 gives an empty [B, 0] (Python's `ids[:, -0:]` is the whole row).
 *
 * Align with: trainer/rollout_engine.py:24-36 (MiniMind); the temperature as in AReaL's
 * areal/utils/functional/vocab_parallel.py:15-20 @ 4aef98d8
 */
export function perTokenLogps(logits: tf.Tensor3D, inputIds: tf.Tensor2D, nKeep: number, temperature = 1): tf.Tensor2D {
  throw new NotImplementedError("lesson-25", "perTokenLogps");
}
