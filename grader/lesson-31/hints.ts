/** Hints for lesson 31 (M2PO): one nudge, one key idea and one formula per function. */
import type { LessonHints } from "../engine/hint-types.js";

const hints: LessonHints = {
  lesson: "lesson-31",
  functions: {
    m2poMask: {
      nudge:
        "M2PO bounds the batch's mean of m2 = (old − prox)², not each token's. If you may remove tokens one at a time until the mean of the rest is below τ, " +
        "which token should go first so that you remove as few as possible?",
      keyIdea:
        "Collect the positions where lossMask is true (padding takes no part), compute m2 there, and sort those positions by m2, largest first (sort indices, not values, so you can put the verdict back in place; break ties by position). " +
        "Walk the suffix means from the end: the mean of the sorted values from i onwards is what remains after removing the i largest. k is the first i whose suffix mean is strictly below τ; if none is, k = n − 1, so the smallest token always survives. " +
        "Mask exactly k tokens (the index is the count: not k + 1), keep the other valid tokens, and return false everywhere outside lossMask. No valid token: return the all-false mask, no error. " +
        "The mask is bookkeeping, not a differentiable op: dataSync() and typed arrays are fine (JavaScript's sort needs a numeric comparator), and the result must be a bool tensor, not float32.",
      formula:
        "m2 = (oldLogp − proxLogp)² on the n valid tokens;  s_0 ≥ … ≥ s_{n−1};  k = min{ i : Σ_{j≥i} s_j / (n − i) < τ }, or n − 1 if none;  " +
        "result = lossMask with the k largest set to false (dtype bool). AReaL: areal/trainer/ppo/actor.py:790-850 @ 4aef98d8 (the search for k is 821-845).",
    },
  },
};

export default hints;
