/** Hints for lesson 9 (embedding, RMSNorm, residual): one nudge, one key idea and one formula per function. */
import type { LessonHints } from "../engine/hint-types.js";

const hints: LessonHints = {
  lesson: "lesson-9",
  functions: {
    rmsNorm: {
      nudge: "One statistic per position: over which axis do you average, and what keeps a row of zeros from dividing 0 by 0?",
      keyIdea:
        "Square x, take the mean over the last axis with keepDims (shape [..., 1]), add ε, take rsqrt, multiply x by it, then by the gain. " +
        "No mean is subtracted (that would be LayerNorm) and ε goes inside the square root. Build it from tensor ops inside one tidy scope: the grader checks the gradient. " +
        "MiniMind computes the norm in float32 (x.float()) and casts the result back to x's dtype; in tfjs x is already float32.",
      formula: "y = w ⊙ x · (mean_H(x²) + ε)^(−1/2).  MiniMind: model/model_minimind.py:50-60 @ d65ef2c.",
    },
    preNormResidual: {
      nudge: "Which tensor does the sublayer read, and which tensor is carried forward unchanged and added back?",
      keyIdea: "Normalise a copy with your rmsNorm, pass it through the sublayer, and add the ORIGINAL x, not the normalised copy. The stream itself is never normalised.",
      formula: "out = x + sublayer(rmsNorm(x, normWeight, eps)).  MiniMind: model/model_minimind.py:186-194 @ d65ef2c.",
    },
  },
};

export default hints;
