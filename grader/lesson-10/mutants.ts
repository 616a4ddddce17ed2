/**
 * Lesson 10's mutants: plausible wrong versions of its functions, one mistake each. Every one must
 * fail some case (test/selfcheck.test.ts); when a learner's output equals one's, the report names
 * its mistake (the first in this order that matches).
 */
import type { MutantDef } from "../engine/types.js";
import { lossVariant } from "./variants.js";

export const mutants: MutantDef[] = [
  {
    exercise: "causalLmLoss",
    name: "contiguous-span",
    mistake: "the scored positions were taken as one run per row (from the first counted target, as many as are counted): a hole of ignored labels between two spans is scored; mask each position by its own label",
    fn: lossVariant({ contiguousSpan: true }),
  },
  {
    exercise: "causalLmLoss",
    name: "count-before-shift",
    mistake: "the number of scored tokens was counted on the labels before the shift (labels[:, :−1]) instead of on the shifted targets labels[:, 1:]",
    fn: lossVariant({ countBeforeShift: true }),
  },
  {
    exercise: "causalLmLoss",
    name: "counts-ignored",
    mistake: "the mean divides by every position; divide by the number of labels that are not ignoreIndex",
    fn: lossVariant({ countIgnored: true }),
  },
  {
    exercise: "causalLmLoss",
    name: "ignore-index-default-zero",
    mistake: "the ignore index defaults to 0 (the pad id) when it is left out; PyTorch's and MiniMind's default is −100",
    fn: lossVariant({ defaultIgnoreIndex: 0 }),
  },
  {
    exercise: "causalLmLoss",
    name: "ignored-as-class-zero",
    mistake: "ignored labels were scored as token 0; positions whose label is ignoreIndex must add nothing and not be counted",
    fn: lossVariant({ ignoredAsClassZero: true }),
  },
  {
    exercise: "causalLmLoss",
    name: "log-of-softmax",
    mistake: "log(softmax(z)) was taken in two steps: a logit more than ≈ 100 below its row's max has softmax 0 in float32 and log 0 = −∞; use logSoftmax (z − max − log Σ exp(z − max))",
    fn: lossVariant({ logOfSoftmax: true }),
  },
  {
    exercise: "causalLmLoss",
    name: "naive-log-sum-exp",
    mistake: "log Σ exp(z) was computed without subtracting the row's max: exp overflows float32 above ≈ 88 and the loss becomes NaN",
    fn: lossVariant({ naiveLogSumExp: true }),
  },
  {
    exercise: "causalLmLoss",
    name: "no-shift",
    mistake: "the logits were scored against the label at the same position; logits[:, t] predicts labels[:, t + 1]: drop the last logit and the first label",
    fn: lossVariant({ noShift: true }),
  },
  {
    exercise: "causalLmLoss",
    name: "per-sequence-mean",
    mistake: "that is a mean of per-sequence means; F.cross_entropy takes one mean over all counted tokens of the batch",
    fn: lossVariant({ perSequenceMean: true }),
  },
  {
    exercise: "causalLmLoss",
    name: "raw-logits",
    mistake: "the raw logit was used as a log-probability; apply logSoftmax over the vocabulary first",
    fn: lossVariant({ rawLogits: true }),
  },
  {
    exercise: "causalLmLoss",
    name: "shift-backwards",
    mistake: "the shift goes the wrong way: pair logits[:, :-1] with labels[:, 1:], not logits[:, 1:] with labels[:, :-1]",
    fn: lossVariant({ shiftBackwards: true }),
  },
];
