/**
 * Lesson 29's mutants: plausible wrong versions of its functions, one mistake each. Every one must
 * fail some case (test/selfcheck.test.ts); when a learner's output equals one's, the report names
 * its mistake (the first in this order that matches).
 */
import type { MutantDef } from "../engine/types.js";
import { distillVariant } from "./variants-distill.js";
import { lossVariant } from "./variants.js";

export const mutants: MutantDef[] = [
  {
    exercise: "decoupledPpoLoss",
    name: "behave-weight-always",
    mistake: "the behaviour weight π_prox/π_behave was applied without rejection sampling; AReaL multiplies it in only when rejectionSampling is set",
    fn: lossVariant({ behaveWeightAlways: true }),
  },
  {
    exercise: "decoupledPpoLoss",
    name: "behave-weight-inverted",
    mistake: "the behaviour weight was π_behave/π_prox; it is π_prox/π_behave = exp(proximalLogprobs − oldLogprobs)",
    fn: lossVariant({ behaveWeightInverted: true }),
  },
  {
    exercise: "decoupledPpoLoss",
    name: "cclip-truthy",
    mistake: "the dual clip was switched on with `if (cClip)`, so cClip = 0 slipped through without an error; any cClip that is given (0 included) must be checked, and only values above 1 accepted",
    fn: lossVariant({ cClipTruthy: true }),
  },
  {
    exercise: "decoupledPpoLoss",
    name: "clip-mask-non-strict",
    mistake: "clipMask used ≤, so every token whose two terms tie (no clipping at all) was counted as clipped; use −A·r < −A·clip(r)",
    fn: lossVariant({ clipMaskNonStrict: true }),
  },
  {
    exercise: "decoupledPpoLoss",
    name: "denominator-kept-tokens",
    mistake: "the loss was divided by the tokens left after rejection sampling; AReaL divides by the count of the original loss mask",
    fn: lossVariant({ denominatorKept: true }),
  },
  {
    exercise: "decoupledPpoLoss",
    name: "dual-clip-signed",
    mistake: "the dual-clip bound was c·A; it is c·|A|, which only bites on tokens with a negative advantage",
    fn: lossVariant({ dualClipSigned: true }),
  },
  {
    exercise: "decoupledPpoLoss",
    name: "min-instead-of-max",
    mistake: "min of −A·r and −A·clip(r) takes the optimistic bound; PPO keeps the larger (pessimistic) loss",
    fn: lossVariant({ minInsteadOfMax: true }),
  },
  {
    exercise: "decoupledPpoLoss",
    name: "ratio-against-behaviour",
    mistake: "the ratio was taken against π_behave (oldLogprobs); decoupled PPO centres the trust region on the proximal policy: r = exp(logprobs − proximalLogprobs)",
    fn: lossVariant({ ratioAgainstBehaviour: true }),
  },
  {
    exercise: "decoupledPpoLoss",
    name: "ratio-as-quotient",
    mistake: "the ratios were taken as exp(log π_θ) / exp(log π_prox) (and exp(log π_prox) / exp(log π_behave)); for log-probs below about −104 both exponentials underflow to 0 and the ratio is 0/0 = NaN: exponentiate the difference of the log-probs instead",
    fn: lossVariant({ ratioAsQuotient: true }),
  },
  {
    exercise: "decoupledPpoLoss",
    name: "rejection-strict-upper",
    mistake: "rejection sampling kept only weights strictly below `upper`, so a token whose behaviour weight is exactly at the bound was rejected; AReaL keeps w ≤ upper",
    fn: lossVariant({ rejectStrictUpper: true }),
  },
  {
    exercise: "decoupledPpoLoss",
    name: "sequence-arithmetic-mean",
    mistake: "at sequence level the token ratios were averaged; GSPO uses the geometric mean exp(mean of log-ratios)",
    fn: lossVariant({ sequenceArithmeticMean: true }),
  },
  {
    exercise: "decoupledPpoLoss",
    name: "sequence-token-advantages",
    mistake: "at sequence level each token kept its own advantage; GSPO gives every token its row's mean advantage",
    fn: lossVariant({ sequenceTokenAdvantages: true }),
  },
  {
    exercise: "decoupledPpoLoss",
    name: "symmetric-clip",
    mistake: "epsClipHigher was ignored; the upper clip bound is 1 + epsClipHigher (it defaults to epsClip only when omitted)",
    fn: lossVariant({ symmetricClip: true }),
  },
  {
    exercise: "decoupledPpoLoss",
    name: "weight-unmasked",
    mistake: "importanceWeight was left non-zero on masked-out tokens; AReaL zeroes the ratio wherever the loss mask is false",
    fn: lossVariant({ weightUnmasked: true }),
  },
  {
    exercise: "distillLoss",
    name: "kd-keeps-rl-loss",
    mistake: "with rl_loss_weight = 0 the RL loss is replaced, not added: pure KD is the distillation term alone",
    fn: distillVariant({ kdKeepsRlLoss: true }),
  },
  {
    exercise: "distillLoss",
    name: "mean-over-padding",
    mistake: "both terms are means over the valid tokens (Σ mask, at least 1), not over every position",
    fn: distillVariant({ meanOverAll: true }),
  },
  {
    exercise: "distillLoss",
    name: "no-importance-weight",
    mistake: "pure KD is a policy-gradient term: the reward is weighted by π_θ/π_old, and that weight is what carries the gradient",
    fn: distillVariant({ noImportanceWeight: true }),
  },
  {
    exercise: "distillLoss",
    name: "penalty-sign-flipped",
    mistake: "the reverse-KL penalty is log π_θ − log π_teacher: minimising it pulls the student down where it is more confident than the teacher",
    fn: distillVariant({ penaltySignFlipped: true }),
  },
  {
    exercise: "distillLoss",
    name: "reward-not-detached",
    mistake: "in pure KD the reward log π_teacher − log π_θ is a fixed per-token reward: detach it, so the gradient flows through the importance weight alone",
    fn: distillVariant({ rewardNotDetached: true }),
  },
  {
    exercise: "distillLoss",
    name: "weight-as-quotient",
    mistake: "the importance weight was taken as exp(log π_θ) / exp(log π_old); for log-probs below about −104 both exponentials underflow and the weight is 0/0 = NaN: exponentiate the difference instead",
    fn: distillVariant({ weightAsQuotient: true }),
  },
  {
    exercise: "distillLoss",
    name: "zero-weight-defaulted",
    mistake: "the default was applied with `distillLossWeight || 0.005`, so an explicit weight of 0 became 0.005; only an omitted weight takes the default (`??`)",
    fn: distillVariant({ zeroWeightDefaulted: true }),
  },
];
