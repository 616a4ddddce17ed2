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
 * The PPO policy (and value) mask over the response: each row's real positions up to and including
 * its first EOS (the policy learns to stop). An EOS at a pad position ends nothing; a row with no
 * EOS keeps the real positions among its first Σ padMask (all of them under right padding); an
 * all-padding row keeps nothing.
 *
 * `completionIds`: [B, R] int32; `padMask`: [B, R] 0/1 (1 = a real generated position).
 * Returns [B, R] float32 0/1.
 *
 * Align with: trainer/train_ppo.py:122-126
 */
export function ppoResponseMask(completionIds: tf.Tensor2D, padMask: tf.Tensor2D, eosTokenId: number): tf.Tensor2D {
  throw new NotImplementedError("lesson-25", "ppoResponseMask");
}
