/**
 * Lesson 32's mutants: plausible wrong versions of its functions, one mistake each. Every one must
 * fail some case (test/selfcheck.test.ts); when a learner's output equals one's, the report names
 * its mistake (the first in this order that matches).
 */
import type { MutantDef } from "../engine/types.js";
import { sapoVariant, sequenceVariant } from "./variants.js";

export const mutants: MutantDef[] = [
  {
    exercise: "sapoLoss",
    name: "always-token-level",
    mistake: "importanceSamplingLevel 'sequence' is ignored: use the sequence-level ratio and mean advantage there",
    fn: sapoVariant({ alwaysTokenLevel: true }),
  },
  {
    exercise: "sapoLoss",
    name: "default-sequence",
    mistake: "an omitted importanceSamplingLevel was taken as \"sequence\"; AReaL's default is \"token\" (one ratio per token)",
    fn: sapoVariant({ defaultSequence: true }),
  },
  {
    exercise: "sapoLoss",
    name: "gate-on-log-ratio",
    mistake: "the gate is σ(τ·log r); AReaL gates on r − 1, which differs once r moves away from 1",
    fn: sapoVariant({ gateOnLogRatio: true }),
  },
  {
    exercise: "sapoLoss",
    name: "gate-on-ratio",
    mistake: "the gate is σ(τ·r); it must be centred at r = 1: σ(τ·(r − 1))",
    fn: sapoVariant({ gateOnRatio: true }),
  },
  {
    exercise: "sapoLoss",
    name: "mean-over-padding",
    mistake: "the loss divides by every position, padding included: divide by the count of masked-in tokens (at least 1)",
    fn: sapoVariant({ meanOverPadding: true }),
  },
  {
    exercise: "sapoLoss",
    name: "no-scale",
    mistake: "the gate misses its 4/τ factor: without it the slope at r = 1 is τ/4, not 1",
    fn: sapoVariant({ noScale: true }),
  },
  {
    exercise: "sapoLoss",
    name: "no-validation",
    mistake: "a temperature ≤ 0 (or an unknown level) must throw an error, not return a loss",
    fn: sapoVariant({ noValidation: true }),
  },
  {
    exercise: "sapoLoss",
    name: "ratio-as-quotient",
    mistake: "the ratio was taken as exp(logprobs) / exp(oldLogprobs); for log-probs below about −104 both exponentials underflow and the ratio is 0/0 = NaN: exponentiate the log-ratio instead",
    fn: sapoVariant({ ratioAsQuotient: true }),
  },
  {
    exercise: "sapoLoss",
    name: "swapped-temperatures",
    mistake: "the temperatures are swapped: τ_pos gates tokens with A > 0, τ_neg the others",
    fn: sapoVariant({ swappedTemperatures: true }),
  },
  {
    exercise: "sapoLoss",
    name: "tau-neg-zero-accepted",
    mistake: "τ_neg = 0 was accepted (only a negative τ_neg refused); both temperatures must be strictly positive, and τ = 0 would divide by zero in 4/τ",
    fn: sapoVariant({ tauNegZeroAccepted: true }),
  },
  {
    exercise: "sequenceLevelRatio",
    name: "advantages-over-padding",
    mistake: "the advantage mean also sums the padded positions' advantages: only masked-in tokens count",
    fn: sequenceVariant({ advantagesOverPadding: true }),
  },
  {
    exercise: "sequenceLevelRatio",
    name: "arithmetic-mean",
    mistake: "the ratio is the arithmetic mean of the token ratios; GSPO takes the geometric mean exp(mean of log-ratios)",
    fn: sequenceVariant({ arithmeticMean: true }),
  },
  {
    exercise: "sequenceLevelRatio",
    name: "divide-by-width",
    mistake: "the means divide by the padded width T; divide by each row's count of masked-in tokens (at least 1)",
    fn: sequenceVariant({ divideByWidth: true }),
  },
  {
    exercise: "sequenceLevelRatio",
    name: "mask-as-lengths",
    mistake: "the loss mask was read as row lengths (the first Σ mask positions of each row); a mask can have holes, such as tool output inside a multi-turn response: average over the masked-in positions themselves",
    fn: sequenceVariant({ maskAsLengths: true }),
  },
  {
    exercise: "sequenceLevelRatio",
    name: "no-final-mask",
    mistake: "padding positions keep the row's ratio and advantage: set them to 0 where the mask is false",
    fn: sequenceVariant({ noFinalMask: true }),
  },
  {
    exercise: "sequenceLevelRatio",
    name: "product-of-ratios",
    mistake: "exp(Σ log r) is the product of the token ratios: divide the summed log-ratio by the row's token count first",
    fn: sequenceVariant({ productOfRatios: true }),
  },
  {
    exercise: "sequenceLevelRatio",
    name: "via-arrays",
    mistake: "the values are right but were computed on plain arrays (dataSync), so no gradient reaches logRatio: stay in tensor ops",
    fn: sequenceVariant({ viaArrays: true }),
  },
];
