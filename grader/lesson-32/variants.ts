/**
 * Parametrised wrong versions of lesson 32's functions. Each mutant file picks one flaw, so every
 * mutant differs from the reference in exactly one plausible way.
 */
import * as tf from "../../lib/tf.js";

export interface SequenceFlaws {
  /** The arithmetic mean of the token ratios, mean(exp(log r)), instead of the geometric mean. */
  arithmeticMean?: boolean;
  /** exp(Σ log r): the product of the token ratios, not their geometric mean. */
  productOfRatios?: boolean;
  /** Divides by the padded width T instead of the row's count of masked tokens. */
  divideByWidth?: boolean;
  /** The advantage mean sums the padded advantages too. */
  advantagesOverPadding?: boolean;
  /** Padding positions keep the row's ratio and advantage instead of 0. */
  noFinalMask?: boolean;
  /** Computed on plain arrays via dataSync: right values, but no gradient reaches logRatio. */
  viaArrays?: boolean;
  /** The mask read as row lengths: the first Σ mask positions of each row are the sequence. */
  maskAsLengths?: boolean;
}

export function sequenceVariant(flaws: SequenceFlaws) {
  return (logRatio: tf.Tensor2D, advantages: tf.Tensor2D, givenMask: tf.Tensor2D) => {
    if (flaws.viaArrays) return sequenceViaArrays(logRatio, advantages, givenMask);
    return tf.tidy(() => {
      const [B, T] = logRatio.shape;
      const lossMask = flaws.maskAsLengths ? tf.less(tf.range(0, T).reshape([1, T]), tf.sum(tf.cast(givenMask, "int32"), 1, true)) : givenMask;
      const zeros = tf.zeros([B, T]);
      const counts = flaws.divideByWidth ? tf.fill([B, 1], T) : tf.maximum(tf.sum(tf.cast(lossMask, "float32"), 1, true), 1);
      const rowSum = (x: tf.Tensor, masked = true) => tf.sum(masked ? tf.where(lossMask, x, zeros) : x, 1, true);
      const ratioCol = flaws.arithmeticMean
        ? tf.div(rowSum(tf.exp(logRatio)), counts)
        : tf.exp(flaws.productOfRatios ? rowSum(logRatio) : tf.div(rowSum(logRatio), counts));
      const advCol = tf.div(rowSum(advantages, !flaws.advantagesOverPadding), counts);
      const spread = (col: tf.Tensor) => (flaws.noFinalMask ? tf.add(zeros, col) : tf.where(lossMask, col, zeros));
      return { ratio: spread(ratioCol) as tf.Tensor2D, advantages: spread(advCol) as tf.Tensor2D };
    });
  };
}

function sequenceViaArrays(logRatio: tf.Tensor2D, advantages: tf.Tensor2D, lossMask: tf.Tensor2D) {
  const [B, T] = logRatio.shape;
  const lr = logRatio.dataSync();
  const a = advantages.dataSync();
  const m = lossMask.dataSync();
  const ratio = new Float32Array(B * T);
  const adv = new Float32Array(B * T);
  for (let b = 0; b < B; b++) {
    let n = 0;
    let sumLr = 0;
    let sumA = 0;
    for (let t = 0; t < T; t++) {
      const i = b * T + t;
      if (!m[i]) continue;
      n++;
      sumLr += lr[i];
      sumA += a[i];
    }
    n = Math.max(n, 1);
    for (let t = 0; t < T; t++) {
      const i = b * T + t;
      ratio[i] = m[i] ? Math.exp(sumLr / n) : 0;
      adv[i] = m[i] ? sumA / n : 0;
    }
  }
  return { ratio: tf.tensor2d(ratio, [B, T]), advantages: tf.tensor2d(adv, [B, T]) };
}

export interface SapoFlaws {
  /** τ_neg where A > 0 and τ_pos elsewhere. */
  swappedTemperatures?: boolean;
  /** σ(τ(r − 1)) without the 4/τ factor. */
  noScale?: boolean;
  /** σ(τ·r): the gate centred at r = 0 instead of r = 1. */
  gateOnRatio?: boolean;
  /** σ(τ·log r) instead of σ(τ(r − 1)). */
  gateOnLogRatio?: boolean;
  /** Divides by B·T instead of the count of masked tokens. */
  meanOverPadding?: boolean;
  /** Never rejects τ ≤ 0 or an unknown level. */
  noValidation?: boolean;
  /** Ignores importanceSamplingLevel: always per-token ratios. */
  alwaysTokenLevel?: boolean;
  /** importanceSamplingLevel defaults to "sequence" when omitted. */
  defaultSequence?: boolean;
  /** τ_neg = 0 accepted: only a negative τ_neg is refused. */
  tauNegZeroAccepted?: boolean;
  /** r as exp(logprobs) / exp(oldLogprobs): 0/0 for log-probs below −104. */
  ratioAsQuotient?: boolean;
}

interface SapoArgs {
  logprobs: tf.Tensor2D;
  oldLogprobs: tf.Tensor2D;
  advantages: tf.Tensor2D;
  tauPos: number;
  tauNeg: number;
  lossMask: tf.Tensor2D;
  importanceSamplingLevel?: string;
}

const sequenceLevel = sequenceVariant({});

export function sapoVariant(flaws: SapoFlaws) {
  return (o: SapoArgs) => {
    const level = o.importanceSamplingLevel ?? (flaws.defaultSequence ? "sequence" : "token");
    const tauNegOk = flaws.tauNegZeroAccepted ? o.tauNeg >= 0 : o.tauNeg > 0;
    if (!flaws.noValidation && !(o.tauPos > 0 && tauNegOk && (level === "token" || level === "sequence"))) throw new Error("invalid SAPO settings");
    return tf.tidy(() => {
      const logRatio = tf.sub(o.logprobs, o.oldLogprobs) as tf.Tensor2D;
      const seq = level === "sequence" && !flaws.alwaysTokenLevel;
      const tokenRatio = flaws.ratioAsQuotient ? tf.div(tf.exp(o.logprobs), tf.exp(o.oldLogprobs)) : tf.exp(logRatio);
      const { ratio, advantages } = seq ? sequenceLevel(logRatio, o.advantages, o.lossMask) : { ratio: tokenRatio, advantages: o.advantages };
      const gate = (tau: number) => {
        const x = flaws.gateOnRatio ? ratio : flaws.gateOnLogRatio ? (seq ? tf.log(tf.maximum(ratio, 1e-30)) : logRatio) : tf.sub(ratio, 1);
        return tf.mul(flaws.noScale ? 1 : 4 / tau, tf.sigmoid(tf.mul(tau, x)));
      };
      const [posTau, negTau] = flaws.swappedTemperatures ? [o.tauNeg, o.tauPos] : [o.tauPos, o.tauNeg];
      const perToken = tf.neg(tf.mul(tf.where(tf.greater(advantages, 0), gate(posTau), gate(negTau)), advantages));
      const count = flaws.meanOverPadding ? perToken.size : tf.maximum(tf.sum(tf.cast(o.lossMask, "float32")), 1);
      return { loss: tf.div(tf.sum(tf.where(o.lossMask, perToken, tf.zerosLike(perToken))), count) as tf.Scalar };
    });
  };
}
