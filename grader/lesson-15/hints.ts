/** Hints for lesson 15 (checkpoint and resume): one nudge, one key idea and one formula each. */
import type { LessonHints } from "../engine/hint-types.js";

const hints: LessonHints = {
  lesson: "lesson-15",
  functions: {
    skipBatches: {
      nudge: "A checkpoint says 'step 3'. Is that three samples or three batches? And what about the short batch at the end of the epoch?",
      keyIdea:
        "Walk through `order` building batches of batchSize. Each time a batch fills up, either count it as skipped (while fewer than skip " +
        "were skipped) or keep it. At the end, a partial batch is kept only if the skipping had finished: otherwise it belongs to the part " +
        "already trained on (or never reached).",
      formula:
        "Full batches order[iB … iB + B − 1] for i = skip, skip + 1, …; then the remainder (n mod B samples) if it is non-empty and " +
        "⌊n/B⌋ ≥ skip. MiniMind: trainer/trainer_utils.py:134-153 @ d65ef2c.",
    },
    rescaleResumeStep: {
      nudge: "With 4 processes each global step consumes 4 local batches. How many global steps is that on 2 processes?",
      keyIdea: "Keep the number of samples seen constant: step·savedWorldSize is that count in local batches; divide by the new world size and round down.",
      formula: "⌊step·saved / current⌋ (multiply first, then integer division). MiniMind: trainer/trainer_utils.py:110-114 @ d65ef2c.",
    },
  },
};

export default hints;
