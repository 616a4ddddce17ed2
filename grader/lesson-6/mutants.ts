/**
 * Lesson 6's mutants: plausible wrong versions of its functions, one mistake each. Every one must
 * fail some case (test/selfcheck.test.ts); when a learner's output equals one's, the report names
 * its mistake (the first in this order that matches).
 */
import type { MutantDef } from "../engine/types.js";
import { pretrainVariant } from "./variants.js";

export const mutants: MutantDef[] = [
  {
    exercise: "pretrainSample",
    name: "cut-to-max-length",
    mistake: "cuts the text to maxLength instead of maxLength − 2, so bos and eos overflow the window",
    fn: pretrainVariant("cut-to-max-length"),
  },
  {
    exercise: "pretrainSample",
    name: "no-eos",
    mistake: "forgets the eos token",
    fn: pretrainVariant("no-eos"),
  },
  {
    exercise: "pretrainSample",
    name: "pad-by-position",
    mistake: "masks only the padding positions, not pad ids inside the text (MiniMind masks by id)",
    fn: pretrainVariant("pad-by-position"),
  },
  {
    exercise: "pretrainSample",
    name: "pad-labels-kept",
    mistake: "keeps the pad ids as labels instead of -100",
    fn: pretrainVariant("pad-labels-kept"),
  },
  {
    exercise: "pretrainSample",
    name: "pads-with-zero",
    mistake: "padded with a literal 0 and labelled 0 as -100: that is MiniMind's pad id, not every tokenizer's; use tokenizer.padId",
    fn: pretrainVariant("pads-with-zero"),
  },
  {
    exercise: "pretrainSample",
    name: "zero-ids-unlabelled",
    mistake: "the labels are -100 where the id is 0 rather than where it is tokenizer.padId (MiniMind's pad id happens to be 0)",
    fn: pretrainVariant("zero-ids-unlabelled"),
  },
];
