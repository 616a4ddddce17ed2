/**
 * Lesson 25 — which response tokens PPO trains on.
 *
 * Shapes: B responses, R generated positions each (right-padded to the longest).
 * Read lessons/25-reward-logprob-kl.md first; MiniMind is cited at commit d65ef2c.
 */
import * as tf from "../../lib/tf.js";
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-25`. Generated from
// solutions/ by `npm run stubs`; edit freely.

/**
 * The PPO policy (and value) mask over the response.
 *
 * `completionIds`: [B, R] int32; `padMask`: [B, R] 0/1 (1 = a real generated position);
 * returns [B, R] float32 0/1. Per row:
 *   length = (index of the first EOS among the non-pad positions) + 1, or, with no such EOS,
 *            the number of non-pad positions; at least 1
 *   mask[j] = 1 if j < length and padMask[j] = 1, else 0
 * The EOS token itself is kept: the policy learns to stop. An EOS at a pad position is ignored.
 * The mask is computed on integers, without gradients, so the reference runs on typed arrays.
 *
 * Align with: trainer/train_ppo.py:122-126
 */
export function ppoResponseMask(completionIds: tf.Tensor2D, padMask: tf.Tensor2D, eosTokenId: number): tf.Tensor2D {
  throw new NotImplementedError("lesson-25", "ppoResponseMask");
}
