/** Hints for lesson 10 (forward pass and loss shift): one nudge, one key idea and one formula. */
import type { LessonHints } from "../engine/hint-types.js";

const hints: LessonHints = {
  lesson: "lesson-10",
  functions: {
    causalLmLoss: {
      nudge:
        "The labels are a copy of the input ids. The logits at position t were computed from tokens 0..t: which label are they a guess for, " +
        "and which logit and which label are left without a partner?",
      keyIdea:
        "Slice logits[:, :T−1] and labels[:, 1:], flatten both. Counted = label ≠ ignoreIndex. Replace ignored labels by any valid id (0), " +
        "pick the log-probability with sum(logSoftmax(z) ⊙ oneHot(y, V), −1) (gatherND has no gradient in tfjs), zero the ignored terms, " +
        "and divide the negated sum by the number of counted labels over the whole batch (not per row). Nothing counted gives 0/0 = NaN, as in PyTorch.",
      formula:
        "loss = −(1/|C|) Σ_{(b,t)∈C} log softmax(z_{b,t})[y_{b,t+1}],  C = {(b,t): t < T−1, y_{b,t+1} ≠ ignoreIndex}. " +
        "MiniMind: model/model_minimind.py:250-252 @ d65ef2c.",
    },
  },
};

export default hints;
