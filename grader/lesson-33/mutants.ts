/**
 * Lesson 33's mutants: plausible wrong versions of its functions, one mistake each. Every one must
 * fail some case (test/selfcheck.test.ts); when a learner's output equals one's, the report names
 * its mistake (the first in this order that matches).
 */
import type { MutantDef } from "../engine/types.js";
import { advantageVariant, klVariant, overlongVariant } from "./variants.js";

export const mutants: MutantDef[] = [
  {
    exercise: "arealAdvantages",
    name: "always-bootstrap",
    mistake: "only rows without EOS (seqlen == T) bootstrap from V[T − 1]; finished rows start from 0",
    fn: advantageVariant({ alwaysBootstrap: true }),
  },
  {
    exercise: "arealAdvantages",
    name: "ignore-mask-no-eos",
    mistake: "with maskNoEosWithZero, rows that fill the window (no EOS) get no outcome reward",
    fn: advantageVariant({ ignoreMaskNoEos: true }),
  },
  {
    exercise: "arealAdvantages",
    name: "keep-last-kl",
    mistake: "the reward at seqlen − 1 (after the last token) must be set to 0 before the outcome reward is added",
    fn: advantageVariant({ keepLastKl: true }),
  },
  {
    exercise: "arealAdvantages",
    name: "kl-rewards-after-shaping",
    mistake: "klRewards is a copy taken before the zeroing at seqlen − 1 and the outcome reward",
    fn: advantageVariant({ klRewardsAfterShaping: true }),
  },
  {
    exercise: "arealAdvantages",
    name: "kl-sign-flipped",
    mistake: "the KL reward is −kl_ctl·KL: moving away from the reference must cost reward",
    fn: advantageVariant({ klSignFlipped: true }),
  },
  {
    exercise: "arealAdvantages",
    name: "logprobs-not-rolled",
    mistake: "the inference log-probs are in token coordinates: roll them by −1 before comparing them with refLogp",
    fn: advantageVariant({ logprobsNotRolled: true }),
  },
  {
    exercise: "arealAdvantages",
    name: "mask-not-rolled",
    mistake: "the loss mask must be rolled by −1 (position t then describes token t + 1) before GAE uses it",
    fn: advantageVariant({ maskNotRolled: true }),
  },
  {
    exercise: "arealAdvantages",
    name: "never-bootstrap",
    mistake: "a truncated row (no EOS) bootstraps from V[T − 1]: its answer did not end, so the value after it is not 0",
    fn: advantageVariant({ neverBootstrap: true }),
  },
  {
    exercise: "arealAdvantages",
    name: "no-carry",
    mistake: "at masked positions the running value and advantage carry over unchanged; only mask-true positions update them",
    fn: advantageVariant({ noCarry: true }),
  },
  {
    exercise: "arealAdvantages",
    name: "reward-at-last-token",
    mistake: "the outcome reward goes to position max(seqlen − 2, 0), where the last token is predicted, not seqlen − 1",
    fn: advantageVariant({ rewardAtLastToken: true }),
  },
  {
    exercise: "arealAdvantages",
    name: "scale-after-clip",
    mistake: "the order is clip((r + bias)·scale, ±clip): scale before clipping",
    fn: advantageVariant({ scaleAfterClip: true }),
  },
  {
    exercise: "arealAdvantages",
    name: "zero-masked",
    mistake: "masked positions store the carried advantage, not 0",
    fn: advantageVariant({ zeroMaskedAdvantages: true }),
  },
  {
    exercise: "klEstimator",
    name: "always-clamp",
    mistake: "applyClamp = false must return the raw estimate, without the [−10, 10] clamp",
    fn: klVariant({ alwaysClamp: true }),
  },
  {
    exercise: "klEstimator",
    name: "k1-flipped",
    mistake: "k1 is δ = log p − log p_base, not log p_base − log p",
    fn: klVariant({ k1Flipped: true }),
  },
  {
    exercise: "klEstimator",
    name: "k2-no-half",
    mistake: "k2 is δ²/2: the factor 1/2 is missing",
    fn: klVariant({ k2NoHalf: true }),
  },
  {
    exercise: "klEstimator",
    name: "k3-ratio-as-quotient",
    mistake: "k3's ratio p_base/p was taken as exp(logProbsBase) / exp(logProbs); for log-probs below about −104 both exponentials underflow and the ratio is 0/0 = NaN: exponentiate the difference instead",
    fn: klVariant({ k3RatioAsQuotient: true }),
  },
  {
    exercise: "klEstimator",
    name: "k3-unflipped",
    mistake: "k3 is e^{−δ} − 1 + δ with δ = log p − log p_base; e^δ − 1 − δ estimates the KL in the other direction",
    fn: klVariant({ k3Unflipped: true }),
  },
  {
    exercise: "klEstimator",
    name: "never-clamp",
    mistake: "by default (applyClamp = true) the estimate is clamped to [−10, 10]",
    fn: klVariant({ neverClamp: true }),
  },
  {
    exercise: "klEstimator",
    name: "no-validation",
    mistake: "an unknown estimator name must throw an error, not fall back to k1",
    fn: klVariant({ noValidation: true }),
  },
  {
    exercise: "overlongPenalty",
    name: "divide-by-max",
    mistake: "the excess is divided by overlongTokens (the length of the ramp), not by maxResponseLength",
    fn: overlongVariant({ divideByMax: true }),
  },
  {
    exercise: "overlongPenalty",
    name: "length-from-last-position",
    mistake: "the response length was taken as the position of the last loss-mask token + 1, which counts the prompt and any holes (tool output); the length is the row's count of loss-mask tokens",
    fn: overlongVariant({ lengthFromLastPosition: true }),
  },
  {
    exercise: "overlongPenalty",
    name: "length-from-width",
    mistake: "the response length is the row's count of loss-mask tokens, not the padded width",
    fn: overlongVariant({ lengthFromWidth: true }),
  },
  {
    exercise: "overlongPenalty",
    name: "no-cap",
    mistake: "short responses earned a bonus: the penalty is min(…, 0), never positive",
    fn: overlongVariant({ noCap: true }),
  },
  {
    exercise: "overlongPenalty",
    name: "threshold-at-max",
    mistake: "the ramp starts overlongTokens before the limit: excess = length − (maxResponseLength − overlongTokens)",
    fn: overlongVariant({ thresholdAtMax: true }),
  },
];
