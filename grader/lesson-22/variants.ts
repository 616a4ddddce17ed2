/**
 * Parametrised wrong versions of lesson 22's functions. Each mutant file picks one flaw, so every
 * mutant differs from the reference in exactly one plausible way.
 */
import * as tf from "../../lib/tf.js";

export type TokenFlaw =
  /** Probabilities (softmax), not log-probabilities. */
  | "softmax-probs"
  /** The raw logit at the label, never normalised. */
  | "raw-logits"
  /** Log-softmax over the sequence axis instead of the vocabulary. */
  | "sequence-axis"
  /** The right values picked with gatherND, which has no gradient in TensorFlow.js. */
  | "gather-nd"
  /** log(softmax(z)): −Infinity once a probability underflows to 0. */
  | "log-of-softmax";

export function tokenLogProbsVariant(flaw: TokenFlaw) {
  return (logits: tf.Tensor3D, labels: tf.Tensor2D) =>
    tf.tidy(() => {
      const [B, T, V] = logits.shape;
      const scores =
        flaw === "log-of-softmax"
          ? tf.log(tf.softmax(logits))
          : flaw === "softmax-probs"
          ? tf.softmax(logits)
          : flaw === "raw-logits"
            ? logits
            : tf.sub(logits, tf.logSumExp(logits, flaw === "sequence-axis" ? 1 : 2, true));
      if (flaw === "gather-nd") {
        const index: number[][][] = [];
        const y = labels.arraySync() as number[][];
        for (let b = 0; b < B; b++) index.push(Array.from({ length: T }, (_, t) => [b, t, y[b][t]]));
        return tf.gatherND(scores, index) as tf.Tensor2D;
      }
      return tf.sum(tf.mul(scores, tf.oneHot(labels, V, 1, 0, "float32")), -1) as tf.Tensor2D;
    });
}

export interface DpoFlaws {
  /** Pairs read as (row 2i, row 2i + 1) instead of (row i, row i + B/2). */
  interleavedPairs?: boolean;
  /** The first half treated as rejected and the second as chosen. */
  swappedHalves?: boolean;
  /** Per-sequence masked mean instead of the masked sum. */
  meanPerSequence?: boolean;
  /** Padding summed too. */
  noMask?: boolean;
  /** The reference log-ratio left out: z = π_c − π_r. */
  noReference?: boolean;
  /** −log(sigmoid(x)): Infinity once sigmoid underflows to 0. */
  naiveLogSigmoid?: boolean;
  /** tf.logSigmoid, whose gradient reads an input tf.tidy has already freed. */
  tfLogSigmoid?: boolean;
  /** The per-sequence sums read out to plain numbers: right value, cut off from autograd. */
  sumsInJs?: boolean;
  /** The rejected rows' sums read out like the frozen reference's: no gradient reaches them. */
  rejectedNoGrad?: boolean;
  /** −log σ(x) as relu(−x) + log1p(exp(−|x|)): the same value, but at x = 0 the kinks of relu and |x| give the opposite gradient. */
  reluLog1p?: boolean;
  /** The ratios taken as exp(Σ logp_c) / exp(Σ logp_r), then logged: 0/0 once sequence log-probs pass about −100. */
  expRatios?: boolean;
  /** The mask read as a response length: the first Σmask positions of each row are summed. */
  maskAsLength?: boolean;
  /** The mask read as one span: every position from its first 1 to its last 1 is summed, holes included. */
  maskAsSpan?: boolean;
}

/** The same values as a new tensor the gradient tape has never seen. */
const constant = (x: tf.Tensor1D): tf.Tensor1D => tf.tensor1d(x.dataSync());

export function dpoLossVariant(flaws: DpoFlaws) {
  return (refLogProbs: tf.Tensor2D, policyLogProbs: tf.Tensor2D, mask: tf.Tensor2D, beta: number) =>
    tf.tidy(() => {
      const [B] = refLogProbs.shape;
      const weights = flaws.noMask ? tf.onesLike(mask) : flaws.maskAsLength || flaws.maskAsSpan ? reshapedMask(mask, flaws) : mask;
      const perSequence = (logp: tf.Tensor2D): tf.Tensor1D => {
        const sums = tf.sum(tf.mul(logp, weights), 1) as tf.Tensor1D;
        return flaws.meanPerSequence ? tf.div(sums, tf.maximum(tf.sum(weights, 1), 1)) : sums;
      };
      const halves = (s: tf.Tensor1D): [tf.Tensor1D, tf.Tensor1D] => {
        if (flaws.interleavedPairs) {
          const pairs = s.reshape([B / 2, 2]);
          return [pairs.slice([0, 0], [B / 2, 1]).reshape([B / 2]), pairs.slice([0, 1], [B / 2, 1]).reshape([B / 2])];
        }
        const [first, second] = tf.split(s, 2) as [tf.Tensor1D, tf.Tensor1D];
        return flaws.swappedHalves ? [second, first] : [first, second];
      };
      const ref = flaws.sumsInJs ? constant(perSequence(refLogProbs)) : perSequence(refLogProbs);
      const policy = flaws.sumsInJs ? constant(perSequence(policyLogProbs)) : perSequence(policyLogProbs);
      const [refChosen, refRejected] = halves(ref);
      const [policyChosen, policyRejectedLive] = halves(policy);
      const policyRejected = flaws.rejectedNoGrad ? constant(policyRejectedLive) : policyRejectedLive;
      const ratio = (a: tf.Tensor1D, b: tf.Tensor1D) => (flaws.expRatios ? tf.log(tf.div(tf.exp(a), tf.exp(b))) : tf.sub(a, b));
      const policyRatio = ratio(policyChosen, policyRejected);
      const margin = flaws.noReference ? policyRatio : tf.sub(policyRatio, ratio(refChosen, refRejected));
      const x = tf.mul(beta, margin);
      const loss = flaws.naiveLogSigmoid
        ? tf.neg(tf.log(tf.sigmoid(x)))
        : flaws.tfLogSigmoid
          ? tf.neg(tf.logSigmoid(x))
          : flaws.reluLog1p
            ? tf.add(tf.relu(tf.neg(x)), tf.log1p(tf.exp(tf.neg(tf.abs(x)))))
            : tf.softplus(tf.neg(x));
      return tf.mean(loss);
    });
}

/** The 0/1 mask a length- or span-minded reading of it would use, built off the tape (it is data). */
function reshapedMask(mask: tf.Tensor2D, flaws: DpoFlaws): tf.Tensor2D {
  const rows = mask.arraySync() as number[][];
  return tf.tensor2d(
    rows.map((row) => {
      const on = row.map((v, t) => (v > 0 ? t : -1)).filter((t) => t >= 0);
      if (flaws.maskAsLength) return row.map((_, t) => (t < on.length ? 1 : 0));
      return row.map((_, t) => (on.length > 0 && t >= on[0] && t <= on[on.length - 1] ? 1 : 0));
    }),
    mask.shape,
  );
}
