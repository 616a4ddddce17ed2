/**
 * Parametrised wrong versions of lesson 24's functions. Each mutant file picks one flaw, so every
 * mutant differs from the reference in exactly one plausible way.
 */
import * as tf from "../../lib/tf.js";
import { stopGradient } from "../../lib/autograd.js";

export type AdvantageFlaw =
  /** Sample standard deviation (divide by G − 1). */
  | "sample-std"
  /** Groups taken with a stride (rows i, i + N, …) as `repeat` instead of `repeat_interleave` would. */
  | "strided-groups"
  /** One mean and std over the whole batch instead of per group. */
  | "batch-statistics"
  /** (r − μ)/√(σ² + eps) instead of (r − μ)/(σ + eps). */
  | "eps-inside-sqrt"
  /** σ² as E[r²] − μ² in float32: cancels catastrophically (negative for a tie, so √ gives NaN). */
  | "moment-shortcut"
  /** The `eps` argument is ignored: 1e-4 is written into the formula. */
  | "eps-ignored"
  /** The default of `eps` is 1e-8 (lesson 23's), not MiniMind's 1e-4. */
  | "eps-default-1e-8";

export function advantagesVariant(flaw: AdvantageFlaw) {
  return (rewards: tf.Tensor1D, numGenerations: number, epsArg?: number) =>
    tf.tidy(() => {
      const eps = flaw === "eps-ignored" ? 1e-4 : (epsArg ?? (flaw === "eps-default-1e-8" ? 1e-8 : 1e-4));
      const G = numGenerations;
      const N = rewards.size / G;
      const grouped =
        flaw === "strided-groups" ? tf.transpose(tf.reshape(rewards, [G, N])) : flaw === "batch-statistics" ? tf.reshape(rewards, [1, -1]) : tf.reshape(rewards, [N, G]);
      const width = flaw === "batch-statistics" ? rewards.size : G;
      const moments = tf.moments(grouped, 1, true);
      const mean = moments.mean;
      const variance = flaw === "moment-shortcut" ? tf.sub(tf.mean(tf.square(grouped), 1, true), tf.square(mean)) : moments.variance;
      const spread =
        flaw === "sample-std"
          ? tf.add(tf.sqrt(tf.div(tf.mul(variance, width), Math.max(width - 1, 1))), eps)
          : flaw === "eps-inside-sqrt"
            ? tf.sqrt(tf.add(variance, eps))
            : tf.add(tf.sqrt(variance), eps);
      const normalised = tf.div(tf.sub(grouped, mean), spread);
      return (flaw === "strided-groups" ? tf.reshape(tf.transpose(normalised), [-1]) : tf.reshape(normalised, [-1])) as tf.Tensor1D;
    });
}

export type MaskFlaw =
  /** j < eosIndex: the EOS token itself is dropped. */
  | "eos-excluded"
  /** No fallback for rows without an EOS: argMax of an all-zero row is 0. */
  | "no-eos-keeps-first"
  /** EOS ids inside the padding count as the end of the answer. */
  | "eos-in-padding"
  /** The final ∧ padMask is forgotten. */
  | "no-pad-mask"
  /** The last EOS of the row instead of the first. */
  | "last-eos"
  /** The EOS searched only among the first Σ padMask positions, as if the real tokens were a prefix. */
  | "eos-within-real-count";

export function completionMaskVariant(flaw: MaskFlaw) {
  return (completionIds: tf.Tensor2D, padMask: tf.Tensor2D, eosTokenId: number) =>
    tf.tidy(() => {
      const [B, R] = completionIds.shape;
      const real = tf.cast(padMask, "bool");
      const eqEos = tf.equal(completionIds, tf.scalar(eosTokenId, "int32"));
      const positions = tf.range(0, R, 1, "int32").expandDims(0);
      const realCount = tf.sum(tf.cast(real, "int32"), 1, true); // [B, 1]
      const searched = flaw === "eos-within-real-count" ? tf.logicalAnd(real, tf.less(positions, realCount)) : real;
      const isEos = flaw === "eos-in-padding" ? eqEos : tf.logicalAnd(eqEos, searched);
      const firstEos =
        flaw === "last-eos"
          ? tf.max(tf.where(isEos, tf.tile(positions, [B, 1]), tf.fill([B, R], -1, "int32")), 1)
          : tf.argMax(tf.cast(isEos, "int32"), 1);
      const eosIndex = flaw === "no-eos-keeps-first" ? firstEos : tf.where(tf.any(isEos, 1), firstEos, tf.fill([B], R - 1, "int32"));
      const kept = flaw === "eos-excluded" ? tf.less(positions, eosIndex.expandDims(1)) : tf.lessEqual(positions, eosIndex.expandDims(1));
      return tf.cast(flaw === "no-pad-mask" ? kept : tf.logicalAnd(kept, real), "int32") as tf.Tensor2D;
    });
}

export type KlFlaw =
  /** δ = policy − ref. */
  | "flipped-delta"
  /** k1: log π − log π_ref, which can be negative. */
  | "k1"
  /** exp(δ) − δ without the − 1. */
  | "no-minus-one"
  /** k2: δ²/2. */
  | "k2"
  /** e^δ as exp(ref) / exp(policy): both underflow to 0 for log-probs below about −104 (0/0 = NaN). */
  | "ratio-of-probs";

export function klVariant(flaw?: KlFlaw) {
  return (policyLogps: tf.Tensor2D, refLogps: tf.Tensor2D) =>
    tf.tidy(() => {
      const delta = flaw === "flipped-delta" ? tf.sub(policyLogps, refLogps) : tf.sub(refLogps, policyLogps);
      if (flaw === "k1") return tf.neg(delta) as tf.Tensor2D;
      if (flaw === "k2") return tf.div(tf.square(delta), 2) as tf.Tensor2D;
      const expDelta = flaw === "ratio-of-probs" ? tf.div(tf.exp(refLogps), tf.exp(policyLogps)) : tf.exp(delta);
      return tf.sub(tf.sub(expDelta, delta), flaw === "no-minus-one" ? 0 : 1) as tf.Tensor2D;
    });
}

const kl = klVariant();

/** MiniMind's per-sequence-then-batch mean, or one mean over every counted token of the batch. */
function reduce(perToken: tf.Tensor2D, mask: tf.Tensor2D, tokenMean: boolean): tf.Scalar {
  if (tokenMean) return tf.div(tf.sum(tf.mul(perToken, mask)), tf.maximum(tf.sum(mask), 1));
  return tf.mean(tf.div(tf.sum(tf.mul(perToken, mask), 1), tf.maximum(tf.sum(mask, 1), 1)));
}

export interface GrpoFlaws {
  /** max of the two surrogates: the optimistic bound. */
  maxInsteadOfMin?: boolean;
  /** No clipping: the plain importance-weighted objective. */
  noClip?: boolean;
  /** −(min(…) + β·kl): the KL rewarded instead of penalised. */
  klSign?: boolean;
  /** One mean over all counted tokens instead of per sequence, then over sequences. */
  tokenMean?: boolean;
  /** The ratio detached as in CISPO: the surrogate gives no gradient. */
  ratioDetached?: boolean;
  /** ρ = exp(new) / exp(old): both underflow to 0 for log-probs below about −104 (0/0 = NaN). */
  ratioOfProbs?: boolean;
  /** The KL term detached, as if it were a reward: right value, no gradient through it. */
  klDetached?: boolean;
}

/** exp(a − b), or the underflowing exp(a) / exp(b). */
const ratioOf = (a: tf.Tensor2D, b: tf.Tensor2D, ofProbs = false): tf.Tensor2D => (ofProbs ? tf.div(tf.exp(a), tf.exp(b)) : tf.exp(tf.sub(a, b))) as tf.Tensor2D;

export function grpoVariant(flaws: GrpoFlaws) {
  return (policyLogps: tf.Tensor2D, oldLogps: tf.Tensor2D, refLogps: tf.Tensor2D, advantages: tf.Tensor1D, completionMask: tf.Tensor2D, epsilon: number, beta: number) =>
    tf.tidy(() => {
      const live = ratioOf(policyLogps, oldLogps, flaws.ratioOfProbs);
      const ratio = flaws.ratioDetached ? stopGradient(live) : live;
      const adv = advantages.expandDims(1);
      const a = tf.mul(ratio, adv);
      const b = flaws.noClip ? a : tf.mul(tf.clipByValue(ratio, 1 - epsilon, 1 + epsilon), adv);
      const surrogate = flaws.maxInsteadOfMin ? tf.maximum(a, b) : tf.minimum(a, b);
      const klTerm = kl(policyLogps, refLogps);
      const penalty = tf.mul(beta, flaws.klDetached ? stopGradient(klTerm) : klTerm);
      const perToken = tf.neg(flaws.klSign ? tf.add(surrogate, penalty) : tf.sub(surrogate, penalty)) as tf.Tensor2D;
      return reduce(perToken, completionMask, flaws.tokenMean ?? false);
    });
}

export interface CispoFlaws {
  /** The weight min(ρ, ε_high) is not detached, so the gradient also flows through ρ. */
  noDetach?: boolean;
  /** The cap read as 1 + ε_high, like a PPO clip bound. */
  onePlusEpsilon?: boolean;
  /** No cap at all: the weight is ρ. */
  noTruncation?: boolean;
  /** The log-prob factor forgotten: −(w·A) has no gradient through the policy. */
  noLogp?: boolean;
  tokenMean?: boolean;
  /** ρ = exp(new) / exp(old), underflowing for very negative log-probs. */
  ratioOfProbs?: boolean;
}

export function cispoVariant(flaws: CispoFlaws) {
  return (policyLogps: tf.Tensor2D, oldLogps: tf.Tensor2D, refLogps: tf.Tensor2D, advantages: tf.Tensor1D, completionMask: tf.Tensor2D, epsilonHigh: number, beta: number) =>
    tf.tidy(() => {
      const ratio = ratioOf(policyLogps, oldLogps, flaws.ratioOfProbs);
      const capped = flaws.noTruncation ? ratio : tf.minimum(ratio, flaws.onePlusEpsilon ? 1 + epsilonHigh : epsilonHigh);
      const weight = flaws.noDetach ? capped : stopGradient(capped);
      const term = tf.mul(weight, advantages.expandDims(1));
      const objective = flaws.noLogp ? term : tf.mul(term, policyLogps);
      const perToken = tf.neg(tf.sub(objective, tf.mul(beta, kl(policyLogps, refLogps)))) as tf.Tensor2D;
      return reduce(perToken, completionMask, flaws.tokenMean ?? false);
    });
}
