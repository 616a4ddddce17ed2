/**
 * Parametrised wrong versions of decoupledPpoLoss. Each mutant file turns on one flaw, so every
 * mutant differs from the reference in exactly one plausible way.
 */
import * as tf from "../../lib/tf.js";
import type { DecoupledPpoOptions, DecoupledPpoResult } from "../../solutions/lesson-29/decoupled-ppo.js";

export interface LossFlaws {
  /** r = π_θ/π_behave: the trust region centred on the behaviour policy. */
  ratioAgainstBehaviour?: boolean;
  /** ε_high ignored: the upper bound is 1 + ε. */
  symmetricClip?: boolean;
  /** The dual bound c·A instead of c·|A|. */
  dualClipSigned?: boolean;
  /** min of the two PPO terms instead of max. */
  minInsteadOfMax?: boolean;
  /** Divides by the tokens rejection sampling kept instead of the original count. */
  denominatorKept?: boolean;
  /** Behaviour weight π_behave/π_prox. */
  behaveWeightInverted?: boolean;
  /** Behaviour weight π_prox/π_behave applied even without rejection sampling. */
  behaveWeightAlways?: boolean;
  /** Sequence level: the arithmetic mean of the token ratios. */
  sequenceArithmeticMean?: boolean;
  /** Sequence level: token advantages left as they are. */
  sequenceTokenAdvantages?: boolean;
  /** clipMask with ≤: ties (unclipped tokens) counted as clipped. */
  clipMaskNonStrict?: boolean;
  /** importanceWeight not zeroed off the mask. */
  weightUnmasked?: boolean;
  /** `if (cClip)`: a cClip of 0 is neither refused nor applied. */
  cClipTruthy?: boolean;
  /** Ratios as exp(log π_θ) / exp(log π_prox) (and the behaviour weight likewise): 0/0 for log-probs below −100. */
  ratioAsQuotient?: boolean;
  /** Rejection sampling keeps w < upper: a weight exactly at the bound is rejected. */
  rejectStrictUpper?: boolean;
}

const keepWhere = (mask: tf.Tensor, x: tf.Tensor) => tf.where(mask, x, tf.zerosLike(x));

export function lossVariant(flaws: LossFlaws) {
  return (options: DecoupledPpoOptions): DecoupledPpoResult => {
    const { epsClip, cClip, importanceSamplingLevel = "token", rejectionSampling: rs } = options;
    const epsClipHigher = flaws.symmetricClip ? epsClip : (options.epsClipHigher ?? epsClip);
    const dualClipOn = flaws.cClipTruthy ? Boolean(cClip) : cClip !== undefined;
    if (dualClipOn && !((cClip as number) > 1)) throw new Error(`cClip must be greater than 1, got ${cClip}`);
    return tf.tidy(() => {
      const { logprobs, proximalLogprobs, oldLogprobs } = options;
      let lossMask: tf.Tensor = options.lossMask;
      let behaveWeight: tf.Tensor | undefined;
      const behaveLogRatio = flaws.behaveWeightInverted ? tf.sub(oldLogprobs, proximalLogprobs) : tf.sub(proximalLogprobs, oldLogprobs);
      // exp(a − b), or with ratioAsQuotient exp(a) / exp(b).
      const expRatio = (a: tf.Tensor, b: tf.Tensor) => (flaws.ratioAsQuotient ? tf.div(tf.exp(a), tf.exp(b)) : tf.exp(tf.sub(a, b)));
      if (rs) {
        const raw = expRatio(proximalLogprobs, oldLogprobs);
        const weight = flaws.behaveWeightInverted ? tf.exp(behaveLogRatio) : raw;
        if (rs.action === "mask") {
          lossMask = tf.logicalAnd(lossMask, flaws.rejectStrictUpper ? tf.less(raw, rs.upper) : tf.lessEqual(raw, rs.upper));
          behaveWeight = keepWhere(lossMask, weight);
        } else behaveWeight = keepWhere(lossMask, tf.clipByValue(weight, 0, rs.upper));
      } else if (flaws.behaveWeightAlways) behaveWeight = keepWhere(lossMask, tf.exp(behaveLogRatio));
      const tokenCount = tf.maximum(tf.sum(tf.cast(flaws.denominatorKept ? lossMask : options.lossMask, "float32")), 1);

      const anchor = flaws.ratioAgainstBehaviour ? oldLogprobs : proximalLogprobs;
      const logRatio = tf.sub(logprobs, anchor);
      let ratio: tf.Tensor;
      let advantages: tf.Tensor = options.advantages;
      if (importanceSamplingLevel === "sequence") {
        const counts = tf.maximum(tf.sum(tf.cast(lossMask, "float32"), 1, true), 1);
        const rowMean = (x: tf.Tensor) => tf.broadcastTo(tf.div(tf.sum(keepWhere(lossMask, x), 1, true), counts), x.shape);
        ratio = keepWhere(lossMask, flaws.sequenceArithmeticMean ? rowMean(tf.exp(logRatio)) : tf.exp(rowMean(logRatio)));
        if (!flaws.sequenceTokenAdvantages) advantages = keepWhere(lossMask, rowMean(advantages));
      } else {
        const tokenRatio = flaws.ratioAsQuotient ? expRatio(logprobs, anchor) : tf.exp(logRatio);
        ratio = flaws.weightUnmasked ? tokenRatio : keepWhere(lossMask, tokenRatio);
      }

      const clipped = tf.clipByValue(ratio, 1 - epsClip, 1 + epsClipHigher);
      const a = tf.mul(tf.neg(advantages), ratio);
      const b = tf.mul(tf.neg(advantages), clipped);
      const clipMask = tf.logicalAnd(flaws.clipMaskNonStrict ? tf.lessEqual(a, b) : tf.less(a, b), lossMask);
      let tokenLoss = flaws.minInsteadOfMax ? tf.minimum(a, b) : tf.maximum(a, b);
      let dualClipMask = tf.zerosLike(lossMask);
      if (dualClipOn) {
        const bound = tf.mul(flaws.dualClipSigned ? advantages : tf.abs(advantages), cClip as number);
        dualClipMask = tf.logicalAnd(tf.less(bound, tokenLoss), lossMask);
        tokenLoss = tf.minimum(tokenLoss, bound);
      }
      if (behaveWeight) tokenLoss = tf.mul(tokenLoss, behaveWeight);
      return {
        loss: tf.div(tf.sum(keepWhere(lossMask, tokenLoss)), tokenCount) as tf.Scalar,
        clipMask: clipMask as tf.Tensor2D,
        dualClipMask: dualClipMask as tf.Tensor2D,
        importanceWeight: ratio as tf.Tensor2D,
      };
    });
  };
}
