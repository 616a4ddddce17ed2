/**
 * Lesson 13 — Feed-forward and mixture of experts.
 *
 * Shapes: x is [..., H] (usually [B, T, H]); I = intermediateSize (a dense FFN) or
 * moeIntermediateSize (one expert); E = numExperts; k = numExpertsPerTok. Weights use PyTorch's
 * nn.Linear layout, [out, in]. Read lessons/13-ffn-and-moe.md first; every function cites the
 * MiniMind lines it mirrors at commit d65ef2c (jingyaogong/minimind).
 */
import * as tf from "../../lib/tf.js";
import { linear } from "../../lib/model/linear.js";
import type { FfnWeights, MoeOptions, MoeResult, MoeWeights } from "../../lib/model/types.js";

// The weights, options and result types: declared in lib/model/types.ts, which the model uses too.
export type { FfnWeights, MoeOptions, MoeResult, MoeWeights };

/**
 * SwiGLU feed-forward: a SiLU-gated linear unit between two widths (H → I → H).
 *
 * `x`: [..., H] float32; weights as in `FfnWeights`. Returns [..., H], differentiable in x and
 * every weight.
 *
 * Align with: model/model_minimind.py:136-146
 */
export function feedForward(x: tf.Tensor, w: FfnWeights): tf.Tensor {
  // BEGIN SOLUTION
  return tf.tidy(() => {
    const gated = linear(x, w.gate); // [..., I]
    const activated = tf.mul(gated, tf.sigmoid(gated)); // silu
    return linear(tf.mul(activated, linear(x, w.up)), w.down); // [..., H]
  });
  // END SOLUTION
}

/**
 * A mixture-of-experts feed-forward: each token is sent to its k best experts (MiniMind's router)
 * and gets their outputs, weighted; plus MiniMind's load-balancing loss.
 *
 * `x`: [..., H] float32; weights as in `MoeWeights`. Returns `output` [..., H] and `auxLoss`, a
 * scalar that is exactly 0 unless `training` and `routerAuxLossCoef` > 0. The gradient reaches the
 * router's weights (through the routing weights and the aux loss); the top-k choice carries none.
 *
 * Align with: model/model_minimind.py:148-176
 */
export function moeFeedForward(x: tf.Tensor, w: MoeWeights, opts: MoeOptions): MoeResult {
  // BEGIN SOLUTION
  return tf.tidy(() => {
    const H = x.shape[x.shape.length - 1];
    const E = w.experts.length;
    const tokens = tf.reshape(x, [-1, H]); // [N, H]
    const N = tokens.shape[0];
    const scores = tf.softmax(linear(tokens, w.gate)); // [N, E]
    // tfjs has no gradient for TopK; the choice needs none, so pick on a copy that is off the tape.
    const { indices } = tf.topk(tf.tensor2d(scores.dataSync(), [N, E]), opts.topK); // [N, k]
    const selected = tf.sum(tf.oneHot(indices, E), 1).toFloat(); // [N, E], 1 where routed
    let routing = tf.mul(scores, selected); // [N, E], the chosen p_e in place
    if (opts.normTopkProb) routing = tf.div(routing, tf.add(tf.sum(routing, -1, true), 1e-20));
    let y: tf.Tensor = tf.zeros([N, H]);
    w.experts.forEach((expert, e) => {
      const weight = tf.slice(routing, [0, e], [N, 1]); // [N, 1]
      y = tf.add(y, tf.mul(feedForward(tokens, expert), weight));
    });
    let auxLoss = tf.scalar(0);
    if (opts.training && opts.routerAuxLossCoef > 0) {
      const load = tf.mean(selected, 0); // [E], f_e
      auxLoss = tf.mul(tf.sum(tf.mul(load, tf.mean(scores, 0))), E * opts.routerAuxLossCoef);
    }
    return { output: tf.reshape(y, x.shape), auxLoss: auxLoss as tf.Scalar };
  });
  // END SOLUTION
}
