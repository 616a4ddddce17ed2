/**
 * Lesson 15's mutants: plausible wrong versions of its functions, one mistake each. Every one must
 * fail some case (test/selfcheck.test.ts); when a learner's output equals one's, the report names
 * its mistake (the first in this order that matches).
 */
import type { MutantDef } from "../engine/types.js";
import { rescaleVariant, skipVariant } from "./variants.js";

export const mutants: MutantDef[] = [
  {
    exercise: "rescaleResumeStep",
    name: "float-ratio",
    mistake: "the ratio saved/current was taken first, in floating point: 45 · (7/5) is 62.999…, which floors to 62; multiply first, then divide (MiniMind: step * saved_ws // current_ws)",
    fn: rescaleVariant({ floatRatio: true }),
  },
  {
    exercise: "rescaleResumeStep",
    name: "inverted",
    mistake: "the ratio is upside down: the step scales by saved/current (more processes now means fewer steps)",
    fn: rescaleVariant({ inverted: true }),
  },
  {
    exercise: "rescaleResumeStep",
    name: "none",
    mistake: "the saved step was kept when the world size changed; it counts global batches of the old size",
    fn: rescaleVariant({ none: true }),
  },
  {
    exercise: "rescaleResumeStep",
    name: "ratio-floored",
    mistake: "the ratio saved/current was floored before multiplying; multiply first, then divide and round down",
    fn: rescaleVariant({ ratioFloored: true }),
  },
  {
    exercise: "rescaleResumeStep",
    name: "rounded",
    mistake: "rounded to the nearest step; MiniMind rounds down (integer division)",
    fn: rescaleVariant({ rounded: true }),
  },
  {
    exercise: "skipBatches",
    name: "drop-tail",
    mistake: "the short last batch was dropped: MiniMind trains on it (no drop_last)",
    fn: skipVariant({ dropTail: true }),
  },
  {
    exercise: "skipBatches",
    name: "samples-not-batches",
    mistake: "skip samples were dropped instead of skip batches: the saved step counts batches",
    fn: skipVariant({ samplesNotBatches: true }),
  },
  {
    exercise: "skipBatches",
    name: "tail-always",
    mistake: "the short last batch was kept although fewer full batches than skip were there to skip",
    fn: skipVariant({ tailAlways: true }),
  },
];
