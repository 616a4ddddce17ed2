/**
 * Lesson 18's mutants: plausible wrong versions of its functions, one mistake each. Every one must
 * fail some case (test/selfcheck.test.ts); when a learner's output equals one's, the report names
 * its mistake (the first in this order that matches).
 */
import type { MutantDef } from "../engine/types.js";
import { loraLinearVariant, mergeLoraVariant } from "./variants.js";

export const mutants: MutantDef[] = [
  {
    exercise: "loraLinear",
    name: "alpha-only",
    mistake: "the adapter was scaled by α alone; divide by the rank r too (r = the number of rows of A)",
    fn: loraLinearVariant({ scale: "alpha-only" }),
  },
  {
    exercise: "loraLinear",
    name: "detached",
    mistake: "the adapter's output went through plain numbers (dataSync): the value is right but no gradient reaches A or B, so LoRA could never train",
    fn: loraLinearVariant({ detached: true }),
  },
  {
    exercise: "loraLinear",
    name: "inverted-scale",
    mistake: "the scale is r / α; it is α / r: a larger α makes the adapter count more",
    fn: loraLinearVariant({ scale: "inverted-scale" }),
  },
  {
    exercise: "loraLinear",
    name: "no-scale",
    mistake: "the adapter's output was added unscaled; it is multiplied by α / r (MiniMind's scale of 1 is the case α = r)",
    fn: loraLinearVariant({ scale: "no-scale" }),
  },
  {
    exercise: "loraLinear",
    name: "scale-whole-output",
    mistake: "the frozen layer's output was scaled too; only the adapter's output is multiplied by α / r",
    fn: loraLinearVariant({ scaleWholeOutput: true }),
  },
  {
    exercise: "loraLinear",
    name: "skips-fresh-adapter",
    mistake: "a fresh adapter (B all zeros) was skipped as a shortcut: the value is the same, but then nothing reaches A or B, so LoRA training never leaves step 0",
    fn: loraLinearVariant({ skipFresh: true }),
  },
  {
    exercise: "mergeLora",
    name: "detached",
    mistake: "B·A went through plain numbers (dataSync): the merged weight is right but the course's LoRA model trains through it, and no gradient reaches A or B",
    fn: mergeLoraVariant({ detached: true }),
  },
  {
    exercise: "mergeLora",
    name: "inverted-scale",
    mistake: "the update was scaled by r / α; it is α / r",
    fn: mergeLoraVariant({ scale: "inverted-scale" }),
  },
  {
    exercise: "mergeLora",
    name: "no-scale",
    mistake: "the update B·A was added unscaled; merge the same α / r that the adapter's forward pass uses",
    fn: mergeLoraVariant({ scale: "no-scale" }),
  },
  {
    exercise: "mergeLora",
    name: "skips-fresh-adapter",
    mistake: "a fresh adapter (B all zeros) was skipped as a shortcut: the value is the same, but then nothing reaches A or B, so LoRA training never leaves step 0",
    fn: mergeLoraVariant({ skipFresh: true }),
  },
  {
    exercise: "mergeLora",
    name: "subtract",
    mistake: "the update was subtracted; the adapter's output is added to the layer's, so its weight is added to W",
    fn: mergeLoraVariant({ subtract: true }),
  },
  {
    exercise: "mergeLora",
    name: "transposed-delta",
    mistake: "ΔW was built as Aᵀ·Bᵀ ([in, out]); the update of a weight [out, in] is B·A",
    fn: mergeLoraVariant({ transposedDelta: true }),
  },
];
