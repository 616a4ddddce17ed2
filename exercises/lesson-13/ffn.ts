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
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-13`. Generated from
// solutions/ by `npm run stubs`; edit freely.

/** The three projections of one SwiGLU feed-forward (one dense FFN, or one expert). */
export interface FfnWeights {
  /** [I, H]: the branch that goes through SiLU. */
  gate: tf.Tensor2D;
  /** [I, H]: the linear branch it gates. */
  up: tf.Tensor2D;
  /** [H, I]: back to the residual width. */
  down: tf.Tensor2D;
}

/** The router and the experts of one MoE layer. */
export interface MoeWeights {
  /** [E, H]: one routing logit per expert. */
  gate: tf.Tensor2D;
  /** E experts, each a SwiGLU feed-forward. */
  experts: FfnWeights[];
}

export interface MoeOptions {
  /** k: experts each token is sent to (numExpertsPerTok). */
  topK: number;
  /** Rescale the k chosen probabilities to sum to 1. */
  normTopkProb: boolean;
  /** α of the load-balancing loss; 0 turns it off. */
  routerAuxLossCoef: number;
  /** The auxiliary loss exists only in training mode. */
  training: boolean;
}

export interface MoeResult {
  /** [..., H], the shape of x. */
  output: tf.Tensor;
  /** Scalar: the load-balancing loss (0 unless training with α > 0). */
  auxLoss: tf.Scalar;
}

/**
 * SwiGLU feed-forward: a SiLU-gated linear unit between two widths.
 *
 * `x`: [..., H]; weights as in `FfnWeights`. With silu(z) = z·σ(z) (tfjs has no silu helper):
 *   FFN(x) = down( silu(gate(x)) ⊙ up(x) )      where gate(x) = x·Wgᵀ, and so on
 * Returns [..., H].
 *
 * Align with: model/model_minimind.py:136-146
 */
export function feedForward(x: tf.Tensor, w: FfnWeights): tf.Tensor {
  throw new NotImplementedError("lesson-13", "feedForward");
}

/**
 * A mixture-of-experts feed-forward with top-k routing and MiniMind's load-balancing loss.
 *
 * `x`: [..., H], flattened to N tokens. Per token:
 *   p = softmax(gate(x))                                   [E], over all experts
 *   S = the k experts with the largest p;  w_e = p_e for e ∈ S (0 otherwise)
 *   if normTopkProb: w_e ← w_e / (Σ_{e∈S} p_e + 1e-20)
 *   y = Σ_{e∈S} w_e · FFN_e(x)
 * Auxiliary loss, in training with α > 0 (else 0):
 *   f_e = (1/N) Σ_tokens 1[e ∈ S]   (summed over the k slots, so Σ_e f_e = k)
 *   P̄_e = (1/N) Σ_tokens p_e
 *   aux = α · E · Σ_e f_e · P̄_e
 *
 * Readable path: every expert runs on every token and the unrouted ones get weight 0, so the sum
 * equals MiniMind's, which runs each expert only on its routed tokens (a gather and an
 * index_add); that saves E/k of the compute, which matters at scale but not at this size. The
 * gradient reaches the router through p (the weights and the aux loss); the top-k choice carries
 * none, and since tfjs has no gradient for TopK it is taken on a copy of p that is not on the tape.
 *
 * Align with: model/model_minimind.py:148-176
 */
export function moeFeedForward(x: tf.Tensor, w: MoeWeights, opts: MoeOptions): MoeResult {
  throw new NotImplementedError("lesson-13", "moeFeedForward");
}
