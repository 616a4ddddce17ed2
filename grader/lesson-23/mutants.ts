/**
 * Lesson 23's mutants: plausible wrong versions of its functions, one mistake each. Every one must
 * fail some case (test/selfcheck.test.ts); when a learner's output equals one's, the report names
 * its mistake (the first in this order that matches).
 */
import * as tf from "../../lib/tf.js";
import type { MutantDef } from "../engine/types.js";
import { gaeVariant, klVariant, policyVariant, valueVariant } from "./variants.js";

export const mutants: MutantDef[] = [
  {
    exercise: "clippedValueLoss",
    name: "clip-absolute",
    mistake: "V was clipped to [−c, c]; it must stay within c of the rollout's value, [V_old − c, V_old + c]",
    fn: valueVariant({ clipAbsolute: true }),
  },
  {
    exercise: "clippedValueLoss",
    name: "mean-over-padding",
    mistake: "the value loss was averaged over padding too; divide by the number of masked-in tokens",
    fn: valueVariant({ denominator: "all" }),
  },
  {
    exercise: "clippedValueLoss",
    name: "min-instead-of-max",
    mistake: "min of the two squared errors lets the clipped term hide a large error; take the max",
    fn: valueVariant({ minInsteadOfMax: true }),
  },
  {
    exercise: "clippedValueLoss",
    name: "no-gradient",
    mistake: "the loss was computed on plain numbers (dataSync) and returned as a new scalar: the value is right, but no gradient reaches the critic's values; keep it in tensor ops",
    fn: valueVariant({ noGradient: true }),
  },
  {
    exercise: "clippedValueLoss",
    name: "no-half",
    mistake: "the factor 0.5 in front of the value loss is missing",
    fn: valueVariant({ noHalf: true }),
  },
  {
    exercise: "maskedGae",
    name: "mask-as-prefix",
    mistake: "the mask was read as a length per row (its first Σ mask positions kept); a mask can have holes: weight each position by its own mask entry",
    fn: gaeVariant({ maskAsPrefix: true }),
  },
  {
    exercise: "maskedGae",
    name: "no-final-mask",
    mistake: "padding positions keep a non-zero normalised advantage: multiply by the mask at the end",
    fn: gaeVariant({ noFinalMask: true }),
  },
  {
    exercise: "maskedGae",
    name: "no-gamma-in-delta",
    mistake: "δ_t = r_t + V_{t+1} − V_t forgets to discount the bootstrap value by γ",
    fn: gaeVariant({ noGammaInDelta: true }),
  },
  {
    exercise: "maskedGae",
    name: "no-lambda",
    mistake: "A_t = δ_t + γ·A_{t+1} leaves out λ (that is GAE with λ = 1)",
    fn: gaeVariant({ noLambda: true }),
  },
  {
    exercise: "maskedGae",
    name: "reset-at-mask",
    mistake: "the recursion restarts at masked positions; MiniMind runs it over all R positions and masks only afterwards",
    fn: gaeVariant({ resetAtMask: true }),
  },
  {
    exercise: "maskedGae",
    name: "returns-from-normalised",
    mistake: "returns were built from the normalised advantages; they must be A + V before normalisation",
    fn: gaeVariant({ returnsFromNormalised: true }),
  },
  {
    exercise: "maskedGae",
    name: "sample-variance",
    mistake: "the variance divides by n − 1 (sample variance); MiniMind divides by n (population variance)",
    fn: gaeVariant({ sampleVariance: true }),
  },
  {
    exercise: "maskedGae",
    name: "stats-over-padding",
    mistake: "your advantages were normalised over padding too: the mean and variance must count only masked-in tokens",
    fn: gaeVariant({ statsOverPadding: true }),
  },
  {
    exercise: "ppoPolicyLoss",
    name: "clip-log-ratio",
    mistake: "the log-ratio was clipped to [−ε, ε]; PPO clips the ratio itself to [1 − ε, 1 + ε]",
    fn: policyVariant({ clipLogRatio: true }),
  },
  {
    exercise: "ppoPolicyLoss",
    name: "flipped-ratio",
    mistake: "the ratio is exp(old − new); it must be π_new/π_old = exp(new − old)",
    fn: policyVariant({ flippedRatio: true }),
  },
  {
    exercise: "ppoPolicyLoss",
    name: "mean-over-padding",
    mistake: "the loss was averaged over all B·R positions; divide by the number of masked-in tokens",
    fn: policyVariant({ denominator: "all" }),
  },
  {
    exercise: "ppoPolicyLoss",
    name: "min-instead-of-max",
    mistake: "min of the negated objectives takes the optimistic bound; PPO takes max(−A·ρ, −A·clip(ρ)) so the update is pessimistic",
    fn: policyVariant({ minInsteadOfMax: true }),
  },
  {
    exercise: "ppoPolicyLoss",
    name: "no-clip",
    mistake: "the ratio is never clipped, so one batch can push the policy arbitrarily far",
    fn: policyVariant({ noClip: true }),
  },
  {
    exercise: "ppoPolicyLoss",
    name: "no-gradient",
    mistake: "the loss was computed on plain numbers (dataSync) and returned as a new scalar: the value is right, but no gradient reaches newLogps, so the policy never learns; keep it in tensor ops",
    fn: policyVariant({ noGradient: true }),
  },
  {
    exercise: "ppoPolicyLoss",
    name: "ratio-of-probs",
    mistake: "the ratio was computed as exp(new) / exp(old): both underflow to 0 for log-probs below about −104, giving NaN; exponentiate the difference, exp(new − old)",
    fn: policyVariant({ ratioOfProbs: true }),
  },
  {
    exercise: "referenceKlPenalty",
    name: "flipped-delta",
    mistake: "u = policy − ref; the k3 estimator needs u = ref − policy (it is not symmetric)",
    fn: klVariant({ flippedDelta: true }),
  },
  {
    exercise: "referenceKlPenalty",
    name: "k1",
    mistake: "the plain log-ratio (k1) was used; MiniMind uses the k3 form exp(u) − u − 1, which is never negative",
    fn: klVariant({ k1: true }),
  },
  {
    exercise: "referenceKlPenalty",
    name: "no-minus-one",
    mistake: "the − 1 of exp(u) − u − 1 is missing, so identical policies give a penalty of 1 instead of 0",
    fn: klVariant({ noMinusOne: true }),
  },
  {
    exercise: "referenceKlPenalty",
    name: "ratio-of-probs",
    mistake: "e^u was computed as exp(ref) / exp(policy): both underflow to 0 for log-probs below about −104, giving NaN; exponentiate the difference, exp(ref − policy)",
    fn: klVariant({ ratioOfProbs: true }),
  },
  {
    exercise: "referenceKlPenalty",
    name: "unclamped-denominator",
    mistake: "dividing by Σmask without max(·, 1) gives NaN when every token is masked",
    fn: klVariant({ denominator: "unclamped" }),
  },
  {
    exercise: "responseLogpPositions",
    name: "first-row-length",
    mistake: "every row used the first row's prompt length; each row has its own",
    fn: function responseLogpPositions(promptLens: tf.Tensor1D, responseLen: number): tf.Tensor2D {
      const first = promptLens.dataSync()[0];
      const rows = Array.from({ length: promptLens.shape[0] }, () => Array.from({ length: responseLen }, (_, j) => first - 1 + j));
      return tf.tensor2d(rows, [promptLens.shape[0], responseLen], "int32");
    },
  },
  {
    exercise: "responseLogpPositions",
    name: "float-dtype",
    mistake: "int32 − a JS number becomes float32 in TensorFlow.js: positions must stay int32 to be used as gather indices",
    fn: function responseLogpPositions(promptLens: tf.Tensor1D, responseLen: number): tf.Tensor2D {
      return tf.tidy(() => tf.add(tf.sub(promptLens, 1).expandDims(1), tf.range(0, responseLen).expandDims(0)) as tf.Tensor2D);
    },
  },
  {
    exercise: "responseLogpPositions",
    name: "off-by-one",
    mistake: "positions start at promptLen, but the logits at p predict token p + 1: response token j is read at promptLen − 1 + j",
    fn: function responseLogpPositions(promptLens: tf.Tensor1D, responseLen: number): tf.Tensor2D {
      return tf.tidy(() => tf.add(promptLens.expandDims(1), tf.range(0, responseLen, 1, "int32").expandDims(0)) as tf.Tensor2D);
    },
  },
];
