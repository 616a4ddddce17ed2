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
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-13`. Generated from
// solutions/ by `npm run stubs`; edit freely.

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
  throw new NotImplementedError("lesson-13", "feedForward");
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
  throw new NotImplementedError("lesson-13", "moeFeedForward");
}
