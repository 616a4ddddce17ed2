/**
 * Parametrised wrong versions of decoupledPpoLoss. Each mutant file turns on one flaw, so every
 * mutant differs from the reference in exactly one plausible way.
 */
import * as tf from "../../../lib/tf.js";
import type { DecoupledPpoOptions, DecoupledPpoResult } from "../../../solutions/lesson-29/decoupled-ppo.js";

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
}

const keepWhere = (mask: tf.Tensor, x: tf.Tensor) => tf.where(mask, x, tf.zerosLike(x));

export function lossVariant(flaws: LossFlaws) {
  return (options: DecoupledPpoOptions): DecoupledPpoResult => {
    const { epsClip, cClip, importanceSamplingLevel = "token", rejectionSampling: rs } = options;
    const epsClipHigher = flaws.symmetricClip ? epsClip : (options.epsClipHigher ?? epsClip);
    if (cClip !== undefined && !(cClip > 1)) throw new Error(`cClip must be greater than 1, got ${cClip}`);
    return tf.tidy(() => {
      const { logprobs, proximalLogprobs, oldLogprobs } = options;
      let lossMask: tf.Tensor = options.lossMask;
      let behaveWeight: tf.Tensor | undefined;
      const behaveLogRatio = flaws.behaveWeightInverted ? tf.sub(oldLogprobs, proximalLogprobs) : tf.sub(proximalLogprobs, oldLogprobs);
      if (rs) {
        const raw = tf.exp(tf.sub(proximalLogprobs, oldLogprobs));
        const weight = tf.exp(behaveLogRatio);
        if (rs.action === "mask") {
          lossMask = tf.logicalAnd(lossMask, tf.lessEqual(raw, rs.upper));
          behaveWeight = keepWhere(lossMask, weight);
        } else behaveWeight = keepWhere(lossMask, tf.clipByValue(weight, 0, rs.upper));
      } else if (flaws.behaveWeightAlways) behaveWeight = keepWhere(lossMask, tf.exp(behaveLogRatio));
      const tokenCount = tf.maximum(tf.sum(tf.cast(flaws.denominatorKept ? lossMask : options.lossMask, "float32")), 1);

      const logRatio = tf.sub(logprobs, flaws.ratioAgainstBehaviour ? oldLogprobs : proximalLogprobs);
      let ratio: tf.Tensor;
      let advantages: tf.Tensor = options.advantages;
      if (importanceSamplingLevel === "sequence") {
        const counts = tf.maximum(tf.sum(tf.cast(lossMask, "float32"), 1, true), 1);
        const rowMean = (x: tf.Tensor) => tf.broadcastTo(tf.div(tf.sum(keepWhere(lossMask, x), 1, true), counts), x.shape);
        ratio = keepWhere(lossMask, flaws.sequenceArithmeticMean ? rowMean(tf.exp(logRatio)) : tf.exp(rowMean(logRatio)));
        if (!flaws.sequenceTokenAdvantages) advantages = keepWhere(lossMask, rowMean(advantages));
      } else ratio = flaws.weightUnmasked ? tf.exp(logRatio) : keepWhere(lossMask, tf.exp(logRatio));

      const clipped = tf.clipByValue(ratio, 1 - epsClip, 1 + epsClipHigher);
      const a = tf.mul(tf.neg(advantages), ratio);
      const b = tf.mul(tf.neg(advantages), clipped);
      const clipMask = tf.logicalAnd(flaws.clipMaskNonStrict ? tf.lessEqual(a, b) : tf.less(a, b), lossMask);
      let tokenLoss = flaws.minInsteadOfMax ? tf.minimum(a, b) : tf.maximum(a, b);
      let dualClipMask = tf.zerosLike(lossMask);
      if (cClip !== undefined) {
        const bound = tf.mul(flaws.dualClipSigned ? advantages : tf.abs(advantages), cClip);
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
