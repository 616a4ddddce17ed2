/**
 * Lesson 21's mutants: plausible wrong versions of its functions, one mistake each. Every one must
 * fail some case (test/selfcheck.test.ts); when a learner's output equals one's, the report names
 * its mistake (the first in this order that matches).
 */
import type { MutantDef } from "../engine/types.js";
import { batchVariant, sampleVariant } from "./variants.js";

export const mutants: MutantDef[] = [
  {
    exercise: "dpoBatch",
    name: "int-mask",
    mistake: "returns the mask as int32; lesson 22's dpoLoss multiplies it with float log-probs",
    fn: batchVariant("int-mask"),
  },
  {
    exercise: "dpoBatch",
    name: "interleaved",
    mistake: "interleaves chosen and rejected rows (c0, r0, c1, r1, …) instead of all chosen then all rejected",
    fn: batchVariant("interleaved"),
  },
  {
    exercise: "dpoBatch",
    name: "rejected-first",
    mistake: "puts the rejected rows first",
    fn: batchVariant("rejected-first"),
  },
  {
    exercise: "dpoSample",
    name: "labels-as-mask",
    mistake: "returns the SFT labels (ids and -100) as the mask instead of 1s and 0s",
    fn: sampleVariant("labels-as-mask"),
  },
  {
    exercise: "dpoSample",
    name: "mask-all-tokens",
    mistake: "masks every non-pad token, prompt included, instead of the assistant spans",
    fn: sampleVariant("mask-all-tokens"),
  },
  {
    exercise: "dpoSample",
    name: "mask-unshifted",
    mistake: "uses mask[:-1] (aligned with x) instead of mask[1:] (aligned with the targets y)",
    fn: sampleVariant("mask-unshifted"),
  },
  {
    exercise: "dpoSample",
    name: "pad-zero",
    mistake: "the rows were padded with a literal 0, which is MiniMind's pad id but not every tokenizer's: pad with tokenizer.padId",
    fn: sampleVariant("pad-zero"),
  },
  {
    exercise: "dpoSample",
    name: "rejected-drawn-first",
    mistake: "post-processes the rejected conversation first, so the two draws go to the wrong sides",
    fn: sampleVariant("rejected-drawn-first"),
  },
];
