/**
 * Lesson 19's mutants: plausible wrong versions of its functions, one mistake each. Every one must
 * fail some case (test/selfcheck.test.ts); when a learner's output equals one's, the report names
 * its mistake (the first in this order that matches).
 */
import type { MutantDef } from "../engine/types.js";
import { applyLoraVariant, trainableParamsVariant } from "./variants.js";

export const mutants: MutantDef[] = [
  {
    exercise: "applyLora",
    name: "embedding-too",
    mistake: "the token embedding got an adapter; it is a lookup table (nn.Embedding), not a linear layer, even when it is square",
    fn: applyLoraVariant({ embeddingToo: true }),
  },
  {
    exercise: "applyLora",
    name: "every-linear",
    mistake: "every linear layer got an adapter; MiniMind adapts only layers with in_features == out_features (square weights)",
    fn: applyLoraVariant({ everyLinear: true }),
  },
  {
    exercise: "applyLora",
    name: "no-weight-suffix-check",
    mistake: "a square 2-D tensor whose name does not end in \".weight\" (a buffer such as `…rotary.freqs`) got an adapter: only modules' weights are linear layers",
    fn: applyLoraVariant({ noWeightSuffixCheck: true }),
  },
  {
    exercise: "applyLora",
    name: "transposed-a",
    mistake: "A was shaped [in, r]; A maps in features to r, so as a weight in nn.Linear's layout it is [r, in] (and B is [out, r])",
    fn: applyLoraVariant({ transposedA: true }),
  },
  {
    exercise: "applyLora",
    name: "wrong-names",
    mistake: "the adapters were named \"<module>.weight.lora.A\"; MiniMind's save_lora writes \"<module>.lora.A.weight\" and \"<module>.lora.B.weight\"",
    fn: applyLoraVariant({ wrongNames: true }),
  },
  {
    exercise: "applyLora",
    name: "zero-a",
    mistake: "A was zeroed and B drawn at random; MiniMind draws A from N(0, 0.02²) and zeroes B (both start as a no-op, but the names and values differ)",
    fn: applyLoraVariant({ zeroA: true }),
  },
  {
    exercise: "trainableParams",
    name: "dotted-lora",
    mistake: "only names containing \".lora.\" train, so PEFT-style adapter names (`…q_proj.lora_A.default.weight`) stay frozen: every name containing \"lora\" trains",
    fn: trainableParamsVariant({ dottedLora: true }),
  },
  {
    exercise: "trainableParams",
    name: "inverted",
    mistake: "the frozen parameters were listed; the trainable ones are the adapters",
    fn: trainableParamsVariant({ invert: true }),
  },
  {
    exercise: "trainableParams",
    name: "lora-matrices-only",
    mistake: "only names matching `lora.A.weight` / `lora.B.weight` train, so another adapter parameter (`…lora.scaling`) stays frozen: every name containing \"lora\" trains",
    fn: trainableParamsVariant({ abWeightsOnly: true }),
  },
  {
    exercise: "trainableParams",
    name: "only-a",
    mistake: "only the A matrices train; every parameter with \"lora\" in its name trains, A and B",
    fn: trainableParamsVariant({ onlyA: true }),
  },
  {
    exercise: "trainableParams",
    name: "sum-of-dims",
    mistake: "a parameter's size was the sum of its dimensions; it is their product (and 1 for a scalar)",
    fn: trainableParamsVariant({ sumOfDims: true }),
  },
  {
    exercise: "trainableParams",
    name: "total-base-only",
    mistake: "the total left out the adapters; MiniMind counts every parameter of the model with its adapters injected",
    fn: trainableParamsVariant({ totalBaseOnly: true }),
  },
];
