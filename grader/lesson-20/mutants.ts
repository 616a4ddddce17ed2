/**
 * Lesson 20's mutants: plausible wrong versions of its functions, one mistake each. Every one must
 * fail some case (test/selfcheck.test.ts); when a learner's output equals one's, the report names
 * its mistake (the first in this order that matches).
 */
import type { MutantDef } from "../engine/types.js";
import { distillationLossVariant } from "./variants.js";

export const mutants: MutantDef[] = [
  {
    exercise: "distillationLoss",
    name: "ce-at-temperature",
    mistake: "the cross-entropy used logits divided by T; only the distillation term is softened, the label term uses the raw logits",
    fn: distillationLossVariant({ ceAtTemperature: true }),
  },
  {
    exercise: "distillationLoss",
    name: "flipped-kl",
    mistake: "the KL was taken the other way round, KL(student ‖ teacher); MiniMind's F.kl_div(log q, p) is Σ p·(log p − log q) with p the teacher",
    fn: distillationLossVariant({ flippedKl: true }),
  },
  {
    exercise: "distillationLoss",
    name: "kl-log-of-probs",
    mistake: "the KL used log p = log(softmax(teacher / T)): where a teacher probability underflows to 0 that is 0 · (−Infinity) = NaN; take log p from tf.logSoftmax (PyTorch's kl_div counts 0 · log 0 as 0)",
    fn: distillationLossVariant({ klLogOfProbs: true }),
  },
  {
    exercise: "distillationLoss",
    name: "kl-over-all-positions",
    mistake: "the KL was averaged over every position; only positions whose label counts take part, and it is their mean",
    fn: distillationLossVariant({ klOverAllPositions: true }),
  },
  {
    exercise: "distillationLoss",
    name: "log-of-softmax",
    mistake: "the student's log-probabilities were taken as log(softmax(z)), which is −Infinity once a probability underflows (logit spreads beyond about 100): use tf.logSoftmax",
    fn: distillationLossVariant({ logOfSoftmax: true }),
  },
  {
    exercise: "distillationLoss",
    name: "mask-as-span",
    mistake: "every position from the first counted label to the last was counted, so a −100 between two answers (a multi-turn conversation) was learned too: count exactly the positions whose label is not −100",
    fn: distillationLossVariant({ maskAsSpan: true }),
  },
  {
    exercise: "distillationLoss",
    name: "no-shift",
    mistake: "position t was scored against label t; the logits at t predict the token at t + 1, so drop the last position's logits and the first label",
    fn: distillationLossVariant({ noShift: true }),
  },
  {
    exercise: "distillationLoss",
    name: "no-t-squared",
    mistake: "the T² factor is missing: softening by T shrinks the KL's gradients by about 1/T², and T² restores their size",
    fn: distillationLossVariant({ noTemperatureSquared: true }),
  },
  {
    exercise: "distillationLoss",
    name: "student-at-t1",
    mistake: "only the teacher was softened; the student's logits are divided by the same temperature T before the log-softmax",
    fn: distillationLossVariant({ studentAtT1: true }),
  },
  {
    exercise: "distillationLoss",
    name: "swapped-alpha",
    mistake: "α weighted the distillation term; MiniMind's loss is α·CE + (1 − α)·distill",
    fn: distillationLossVariant({ swappedAlpha: true }),
  },
  {
    exercise: "distillationLoss",
    name: "teacher-on-tape",
    mistake: "the teacher's logits receive a gradient; the teacher is a fixed target (MiniMind computes it under no_grad and detaches its probabilities)",
    fn: distillationLossVariant({ teacherOnTape: true }),
  },
];
