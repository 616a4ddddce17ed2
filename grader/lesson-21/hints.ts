/** Hints for lesson 21 (DPO data): one nudge, one key idea and one formula per function. */
import type { LessonHints } from "../engine/hint-types.js";

const hints: LessonHints = {
  lesson: "lesson-21",
  functions: {
    dpoSample: {
      nudge: "The model at position t predicts token t + 1. If the mask says which tokens are the answer, which position's log-prob should each mask entry switch on?",
      keyIdea:
        "For chosen, then rejected: render, post-process (this order, each draws only with an empty think block), encode, cut and pad to maxLength, and build the 0/1 mask with the SFT label scan. " +
        "Then x = ids without the last, y = ids without the first, mask without the first (so mask[t] belongs to target y[t]).",
      formula: "x = ids[:-1], y = ids[1:], mask = loss_mask[1:]. MiniMind: dataset/lm_dataset.py:135-174, 176-192 @ d65ef2c.",
    },
    dpoBatch: {
      nudge: "Lesson 22's dpoLoss pairs row i with row i + B. How must the rows be stacked?",
      keyIdea: "Stack all chosen rows in sample order, then all rejected rows in the same order; x and y as int32, the mask as float32 so it multiplies float log-probs.",
      formula: "x = cat([x_chosen…], [x_rejected…]) → [2B, L−1]; same for y and mask. MiniMind: trainer/train_dpo.py:59-67 @ d65ef2c.",
    },
  },
};

export default hints;
