/** Hints for lesson 6 (pretrain vs SFT): one nudge, one key idea and one formula. */
import type { LessonHints } from "../engine/hint-types.js";

const hints: LessonHints = {
  lesson: "lesson-6",
  functions: {
    pretrainSample: {
      nudge: "Two ids are added around the text and the total must fit in maxLength. How many text ids can stay?",
      keyIdea: "Encode, keep the first maxLength − 2 ids, wrap with bos and eos, pad with padId to maxLength. Labels are the ids, with -100 wherever the id is the pad id (compare ids, not positions).",
      formula: "ids = [bos] + encode(text)[:L−2] + [eos] + [pad]*(…); labels = ids with (ids == pad) → -100. MiniMind: dataset/lm_dataset.py:47-55 @ d65ef2c.",
    },
  },
};

export default hints;
