/**
 * Lesson 22's mutants: plausible wrong versions of its functions, one mistake each. Every one must
 * fail some case (test/selfcheck.test.ts); when a learner's output equals one's, the report names
 * its mistake (the first in this order that matches).
 */
import type { MutantDef } from "../engine/types.js";
import { dpoLossVariant, tokenLogProbsVariant } from "./variants.js";

export const mutants: MutantDef[] = [
  {
    exercise: "dpoLoss",
    name: "interleaved-pairs",
    mistake: "pairs were read as neighbouring rows (2i, 2i + 1); MiniMind stacks [chosen; rejected], so pair i is row i and row i + B/2",
    fn: dpoLossVariant({ interleavedPairs: true }),
  },
  {
    exercise: "dpoLoss",
    name: "mask-as-length",
    mistake: "the mask was read as a response length (the first Σmask positions summed); DPODataset's mask is 0 on the prompt and on the padding, 1 on the answer: multiply by it",
    fn: dpoLossVariant({ maskAsLength: true }),
  },
  {
    exercise: "dpoLoss",
    name: "mask-as-span",
    mistake: "every position from the first to the last masked token was summed, so the user turn between two assistant turns (a hole in the mask) counted: multiply by the mask itself",
    fn: dpoLossVariant({ maskAsSpan: true }),
  },
  {
    exercise: "dpoLoss",
    name: "mean-per-sequence",
    mistake: "each sequence was averaged over its tokens; MiniMind sums the masked log-probs of a sequence (a sequence's log-probability)",
    fn: dpoLossVariant({ meanPerSequence: true }),
  },
  {
    exercise: "dpoLoss",
    name: "naive-log-sigmoid",
    mistake: "−log(sigmoid(x)) becomes Infinity once sigmoid(x) underflows to 0; compute −log σ(x) as softplus(−x)",
    fn: dpoLossVariant({ naiveLogSigmoid: true }),
  },
  {
    exercise: "dpoLoss",
    name: "no-mask",
    mistake: "prompt and padding tokens were summed too: multiply the log-probs by the mask before the per-sequence sum",
    fn: dpoLossVariant({ noMask: true }),
  },
  {
    exercise: "dpoLoss",
    name: "no-reference",
    mistake: "the reference log-ratio is missing: z = (π_c − π_r) − (ref_c − ref_r), not just π_c − π_r",
    fn: dpoLossVariant({ noReference: true }),
  },
  {
    exercise: "dpoLoss",
    name: "ratio-of-exps",
    mistake: "the ratios were taken as exp(Σ logp) / exp(Σ logp) and then logged: a response's log-probability is far below −100, exp underflows to 0 and the ratio is 0/0; subtract the log-probabilities instead",
    fn: dpoLossVariant({ expRatios: true }),
  },
  {
    exercise: "dpoLoss",
    name: "rejected-no-grad",
    mistake: "the rejected responses carry no gradient (scored like the frozen reference): DPO must push the rejected log-probs down as well as the chosen ones up",
    fn: dpoLossVariant({ rejectedNoGrad: true }),
  },
  {
    exercise: "dpoLoss",
    name: "relu-log1p",
    mistake: "−log σ(x) written as relu(−x) + log1p(exp(−|x|)) has the right value, but at x = 0 (the policy equal to the reference: DPO's first step) the kinks of relu and |x| give the opposite gradient: use tf.softplus(−x)",
    fn: dpoLossVariant({ reluLog1p: true }),
  },
  {
    exercise: "dpoLoss",
    name: "sums-in-js",
    mistake: "the per-sequence sums went through plain numbers (dataSync): the value is right but the loss is cut off from the policy, so no gradient flows; keep every step in tensor ops",
    fn: dpoLossVariant({ sumsInJs: true }),
  },
  {
    exercise: "dpoLoss",
    name: "swapped-halves",
    mistake: "chosen and rejected are swapped: the first half of the batch is chosen, the second half rejected",
    fn: dpoLossVariant({ swappedHalves: true }),
  },
  {
    exercise: "dpoLoss",
    name: "tf-log-sigmoid",
    mistake: "tf.logSigmoid's gradient reads its input after tf.tidy has freed it, so backpropagation crashes; write −log σ(x) as tf.softplus(−x)",
    fn: dpoLossVariant({ tfLogSigmoid: true }),
  },
  {
    exercise: "tokenLogProbs",
    name: "gather-nd",
    mistake: "the values are right but tf.gatherND has no gradient in TensorFlow.js: pick the label with a one-hot mask and a sum over the vocabulary",
    fn: tokenLogProbsVariant("gather-nd"),
  },
  {
    exercise: "tokenLogProbs",
    name: "log-of-softmax",
    mistake: "log(softmax(z)) gives −Infinity once a probability underflows to 0 (logit spreads beyond about 100): use tf.logSoftmax, which subtracts the maximum first",
    fn: tokenLogProbsVariant("log-of-softmax"),
  },
  {
    exercise: "tokenLogProbs",
    name: "raw-logits",
    mistake: "the raw logit at the label is not a log-probability: subtract log Σ exp(logits) over the vocabulary first (log_softmax)",
    fn: tokenLogProbsVariant("raw-logits"),
  },
  {
    exercise: "tokenLogProbs",
    name: "sequence-axis",
    mistake: "the log-softmax was taken over the sequence axis; normalise over the vocabulary, the last axis (dim=2)",
    fn: tokenLogProbsVariant("sequence-axis"),
  },
  {
    exercise: "tokenLogProbs",
    name: "softmax-probs",
    mistake: "these are probabilities, not log-probabilities: take log_softmax over the vocabulary, not softmax",
    fn: tokenLogProbsVariant("softmax-probs"),
  },
];
