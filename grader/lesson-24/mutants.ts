/**
 * Lesson 24's mutants: plausible wrong versions of its functions, one mistake each. Every one must
 * fail some case (test/selfcheck.test.ts); when a learner's output equals one's, the report names
 * its mistake (the first in this order that matches).
 */
import * as tf from "../../lib/tf.js";
import type { MutantDef } from "../engine/types.js";
import { advantagesVariant, cispoVariant, completionMaskVariant, grpoVariant, klVariant } from "./variants.js";

export const mutants: MutantDef[] = [
  {
    exercise: "cispoPolicyLoss",
    name: "no-detach",
    mistake: "the weight min(ρ, ε_high) was not detached: the value is right but the gradient also flows through ρ; wrap it in stopGradient",
    fn: cispoVariant({ noDetach: true }),
  },
  {
    exercise: "cispoPolicyLoss",
    name: "no-logp",
    mistake: "the log-prob factor is missing: CISPO's term is w·A·log π, and log π is where its gradient comes from",
    fn: cispoVariant({ noLogp: true }),
  },
  {
    exercise: "cispoPolicyLoss",
    name: "no-truncation",
    mistake: "the weight ρ was never capped: huge ratios get huge weights; use min(ρ, ε_high)",
    fn: cispoVariant({ noTruncation: true }),
  },
  {
    exercise: "cispoPolicyLoss",
    name: "one-plus-epsilon",
    mistake: "the weight was capped at 1 + ε_high; CISPO caps the ratio itself at ε_high (5 by default), with no lower bound",
    fn: cispoVariant({ onePlusEpsilon: true }),
  },
  {
    exercise: "cispoPolicyLoss",
    name: "ratio-of-probs",
    mistake: "the ratio was computed as exp(policy) / exp(old): both underflow to 0 for log-probs below about −104, giving NaN; exponentiate the difference, exp(policy − old)",
    fn: cispoVariant({ ratioOfProbs: true }),
  },
  {
    exercise: "cispoPolicyLoss",
    name: "token-mean",
    mistake: "all counted tokens were averaged together; MiniMind averages within each sequence first, then over sequences",
    fn: cispoVariant({ tokenMean: true }),
  },
  {
    exercise: "groupRelativeAdvantages",
    name: "batch-statistics",
    mistake: "the mean and std were taken over the whole batch; GRPO compares each answer only with the other answers to the same prompt",
    fn: advantagesVariant("batch-statistics"),
  },
  {
    exercise: "groupRelativeAdvantages",
    name: "eps-default-1e-8",
    mistake: "eps defaults to 1e-8 (lesson 23's normalisation); MiniMind's GRPO adds 1e-4 to the standard deviation",
    fn: advantagesVariant("eps-default-1e-8"),
  },
  {
    exercise: "groupRelativeAdvantages",
    name: "eps-ignored",
    mistake: "the eps argument is ignored (1e-4 is written into the formula): a caller's eps must be used",
    fn: advantagesVariant("eps-ignored"),
  },
  {
    exercise: "groupRelativeAdvantages",
    name: "eps-inside-sqrt",
    mistake: "eps went inside the square root, √(σ² + eps); MiniMind divides by σ + eps",
    fn: advantagesVariant("eps-inside-sqrt"),
  },
  {
    exercise: "groupRelativeAdvantages",
    name: "moment-shortcut",
    mistake: "the variance was computed as E[r²] − μ², which cancels catastrophically in float32 (negative for a tied group, so the square root is NaN); take the mean of (r − μ)²",
    fn: advantagesVariant("moment-shortcut"),
  },
  {
    exercise: "groupRelativeAdvantages",
    name: "sample-std",
    mistake: "the standard deviation divides by G − 1 (sample std); MiniMind uses std(unbiased=False), which divides by G",
    fn: advantagesVariant("sample-std"),
  },
  {
    exercise: "groupRelativeAdvantages",
    name: "strided-groups",
    mistake: "groups were taken with a stride (rows i, i + N, …); a prompt's G answers are consecutive, so reshape to [N, G]",
    fn: advantagesVariant("strided-groups"),
  },
  {
    exercise: "grpoCompletionMask",
    name: "eos-excluded",
    mistake: "the EOS token itself was masked out: keep positions j ≤ eosIndex, not j < eosIndex",
    fn: completionMaskVariant("eos-excluded"),
  },
  {
    exercise: "grpoCompletionMask",
    name: "eos-in-padding",
    mistake: "an EOS id inside the padding ended the answer: only real tokens (padMask = 1) can be the EOS",
    fn: completionMaskVariant("eos-in-padding"),
  },
  {
    exercise: "grpoCompletionMask",
    name: "eos-within-real-count",
    mistake: "the EOS was searched only among the first Σ padMask positions, as if the real tokens were a prefix; with a hole in the pad mask a real EOS further on is missed",
    fn: completionMaskVariant("eos-within-real-count"),
  },
  {
    exercise: "grpoCompletionMask",
    name: "inclusive-cumsum",
    mistake: "the EOS token was dropped in rows that have one (rows without an EOS are right): a running count of EOS tokens that includes the current position ends the answer one token early",
    /** "Keep a token while no EOS has been seen", with the inclusive running count: the EOS itself is dropped. */
    fn: function grpoCompletionMask(completionIds: tf.Tensor2D, padMask: tf.Tensor2D, eosTokenId: number): tf.Tensor2D {
      return tf.tidy(() => {
        const real = tf.cast(padMask, "bool");
        const isEos = tf.cast(tf.logicalAnd(tf.equal(completionIds, tf.scalar(eosTokenId, "int32")), real), "int32");
        const seen = tf.cumsum(isEos, 1); // inclusive: the EOS position already counts itself
        return tf.cast(tf.logicalAnd(tf.equal(seen, tf.scalar(0, "int32")), real), "int32") as tf.Tensor2D;
      });
    },
  },
  {
    exercise: "grpoCompletionMask",
    name: "last-eos",
    mistake: "the last EOS of a row was used; the answer ends at the first one",
    fn: completionMaskVariant("last-eos"),
  },
  {
    exercise: "grpoCompletionMask",
    name: "no-eos-keeps-first",
    mistake: "rows without an EOS kept only token 0: argMax of an all-zero row is 0, so fall back to R − 1 when a row has no EOS",
    fn: completionMaskVariant("no-eos-keeps-first"),
  },
  {
    exercise: "grpoCompletionMask",
    name: "no-pad-mask",
    mistake: "padding before the EOS was kept: the mask is (j ≤ eosIndex) AND padMask",
    fn: completionMaskVariant("no-pad-mask"),
  },
  {
    exercise: "grpoPolicyLoss",
    name: "kl-detached",
    mistake: "the KL term was detached, as if it were a reward: the value is right, but β·KL must pull the policy back towards the reference through its gradient",
    fn: grpoVariant({ klDetached: true }),
  },
  {
    exercise: "grpoPolicyLoss",
    name: "kl-sign",
    mistake: "the KL term has the wrong sign: the loss is −(surrogate − β·kl), so the penalty adds to the loss",
    fn: grpoVariant({ klSign: true }),
  },
  {
    exercise: "grpoPolicyLoss",
    name: "max-instead-of-min",
    mistake: "max of ρA and clip(ρ)A takes the optimistic bound; GRPO keeps min(ρA, clip(ρ)A) before negating",
    fn: grpoVariant({ maxInsteadOfMin: true }),
  },
  {
    exercise: "grpoPolicyLoss",
    name: "no-clip",
    mistake: "the ratio is never clipped to [1 − ε, 1 + ε], so one batch can push the policy arbitrarily far",
    fn: grpoVariant({ noClip: true }),
  },
  {
    exercise: "grpoPolicyLoss",
    name: "ratio-detached",
    mistake: "the ratio was detached: the value is right but only the KL term has a gradient; in GRPO the gradient flows through ρ (only CISPO stops it)",
    fn: grpoVariant({ ratioDetached: true }),
  },
  {
    exercise: "grpoPolicyLoss",
    name: "ratio-of-probs",
    mistake: "the ratio was computed as exp(policy) / exp(old): both underflow to 0 for log-probs below about −104, giving NaN; exponentiate the difference, exp(policy − old)",
    fn: grpoVariant({ ratioOfProbs: true }),
  },
  {
    exercise: "grpoPolicyLoss",
    name: "token-mean",
    mistake: "all counted tokens were averaged together; MiniMind averages within each sequence first, then over sequences",
    fn: grpoVariant({ tokenMean: true }),
  },
  {
    exercise: "tokenKlPenalty",
    name: "flipped-delta",
    mistake: "δ = policy − ref; the k3 estimator needs δ = ref − policy (it is not symmetric)",
    fn: klVariant("flipped-delta"),
  },
  {
    exercise: "tokenKlPenalty",
    name: "k1",
    mistake: "the plain log-ratio (k1) was used; MiniMind uses the k3 form exp(δ) − δ − 1, which is never negative",
    fn: klVariant("k1"),
  },
  {
    exercise: "tokenKlPenalty",
    name: "k2",
    mistake: "δ²/2 (k2) was used; MiniMind uses k3 = exp(δ) − δ − 1",
    fn: klVariant("k2"),
  },
  {
    exercise: "tokenKlPenalty",
    name: "no-minus-one",
    mistake: "the − 1 of exp(δ) − δ − 1 is missing, so identical policies give a penalty of 1 instead of 0",
    fn: klVariant("no-minus-one"),
  },
  {
    exercise: "tokenKlPenalty",
    name: "ratio-of-probs",
    mistake: "e^δ was computed as exp(ref) / exp(policy): both underflow to 0 for log-probs below about −104, giving NaN; exponentiate the difference, exp(ref − policy)",
    fn: klVariant("ratio-of-probs"),
  },
];
