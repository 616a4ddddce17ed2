/**
 * Parametrised wrong versions of lesson 13's functions. Each mutant file picks one flaw, so every
 * mutant differs from the reference in exactly one plausible way.
 */
import * as tf from "../../lib/tf.js";
import { linear } from "../../lib/model/linear.js";
import type { FfnWeights, MoeOptions, MoeResult, MoeWeights } from "../../solutions/lesson-13/ffn.js";

export interface FfnFlaws {
  /** SiLU applied to the up branch instead of the gate branch. */
  siluOnUp?: boolean;
  /** σ(gate x) instead of silu(gate x): GLU rather than SwiGLU. */
  sigmoidGate?: boolean;
  /** down(silu(gate x)): the up branch forgotten. */
  noUp?: boolean;
  /** ReLU instead of SiLU. */
  relu?: boolean;
  /** silu(z) as z / (1 + exp(−z)): the same values, but exp(−z) overflows for z below ≈ −88 and the gradient is NaN. */
  siluAsDivision?: boolean;
}

function activation(z: tf.Tensor, flaws: FfnFlaws): tf.Tensor {
  if (flaws.sigmoidGate) return tf.sigmoid(z);
  if (flaws.relu) return tf.relu(z);
  if (flaws.siluAsDivision) return tf.div(z, tf.add(1, tf.exp(tf.neg(z))));
  return tf.mul(z, tf.sigmoid(z));
}

export function ffnVariant(flaws: FfnFlaws) {
  return (x: tf.Tensor, w: FfnWeights): tf.Tensor =>
    tf.tidy(() => {
      const gated = linear(x, w.gate);
      if (flaws.noUp) return linear(activation(gated, flaws), w.down);
      const up = linear(x, w.up);
      const hidden = flaws.siluOnUp ? tf.mul(gated, activation(up, flaws)) : tf.mul(activation(gated, flaws), up);
      return linear(hidden, w.down);
    });
}

export interface MoeFlaws {
  /** Each chosen expert's output added with weight 1. */
  noRoutingWeight?: boolean;
  /** The chosen probabilities renormalised even when normTopkProb is false. */
  alwaysRenormalise?: boolean;
  /** Softmax over the k chosen logits only, instead of over all E then picking. */
  softmaxAfterTopk?: boolean;
  /** aux = α · Σ_e f_e·P̄_e: the factor E forgotten. */
  auxWithoutNumExperts?: boolean;
  /** The aux loss computed in eval mode as well. */
  auxInEval?: boolean;
  /** f_e divided by k (a fraction of slots rather than of tokens). */
  loadPerSlot?: boolean;
  /** The router's softmax as exp(l) / Σ exp(l), without subtracting the max: a logit above ≈ 88 overflows to NaN. */
  naiveRouterSoftmax?: boolean;
}

const feedForward = ffnVariant({});

export function moeVariant(flaws: MoeFlaws) {
  return (x: tf.Tensor, w: MoeWeights, opts: MoeOptions): MoeResult =>
    tf.tidy(() => {
      const H = x.shape[x.shape.length - 1];
      const E = w.experts.length;
      const tokens = tf.reshape(x, [-1, H]);
      const N = tokens.shape[0];
      const logits = linear(tokens, w.gate);
      const scores = flaws.naiveRouterSoftmax ? tf.div(tf.exp(logits), tf.sum(tf.exp(logits), -1, true)) : tf.softmax(logits);
      const { indices } = tf.topk(tf.tensor2d(scores.dataSync(), [N, E]), opts.topK);
      const selected = tf.sum(tf.oneHot(indices, E), 1).toFloat();
      let routing: tf.Tensor;
      if (flaws.softmaxAfterTopk) {
        const masked = tf.where(tf.cast(selected, "bool"), logits, tf.fill(logits.shape, -Infinity));
        routing = tf.softmax(masked);
      } else {
        routing = tf.mul(scores, selected);
        if (opts.normTopkProb || flaws.alwaysRenormalise) routing = tf.div(routing, tf.add(tf.sum(routing, -1, true), 1e-20));
      }
      if (flaws.noRoutingWeight) routing = selected;
      let y: tf.Tensor = tf.zeros([N, H]);
      w.experts.forEach((expert, e) => {
        y = tf.add(y, tf.mul(feedForward(tokens, expert), tf.slice(routing, [0, e], [N, 1])));
      });
      let auxLoss = tf.scalar(0);
      if ((opts.training || flaws.auxInEval) && opts.routerAuxLossCoef > 0) {
        const load = tf.div(tf.mean(selected, 0), flaws.loadPerSlot ? opts.topK : 1);
        const scale = (flaws.auxWithoutNumExperts ? 1 : E) * opts.routerAuxLossCoef;
        auxLoss = tf.mul(tf.sum(tf.mul(load, tf.mean(scores, 0))), scale);
      }
      return { output: tf.reshape(y, x.shape), auxLoss: auxLoss as tf.Scalar };
    });
}
