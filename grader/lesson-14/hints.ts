/** Hints for lesson 14 (learning rate, accumulation, clipping): one nudge, one key idea and one formula each. */
import type { LessonHints } from "../engine/hint-types.js";

const hints: LessonHints = {
  lesson: "lesson-14",
  functions: {
    cosineLr: {
      nudge: "What should the factor in front of lr be at step 0, at step total/2 and at step total? Write the three numbers down first.",
      keyIdea:
        "A half cosine cos(π·step/total) runs from 1 to −1 over the run, so (1 + cos)/2 runs from 1 to 0. MiniMind squeezes that " +
        "into the range [0.1, 1] instead of [0, 1]: a constant floor of 0.1 plus 0.9 times the half-cosine. No clamping for steps past total.",
      formula: "lr · (0.1 + 0.45·(1 + cos(π·step/total))). MiniMind: trainer/trainer_utils.py:40-41 @ d65ef2c.",
    },
    shouldStepOptimizer: {
      nudge: "With K = 4 and steps counted from 1, after which micro-batches have exactly 4 gradients been added up?",
      keyIdea: "The optimiser steps on the last micro-batch of each group of K: steps K, 2K, 3K, … Counting starts at 1, so step 0 never happens.",
      formula: "step mod K = 0. MiniMind: trainer/train_pretrain.py:42 @ d65ef2c.",
    },
    shouldFlushTail: {
      nudge: "An epoch of 10 micro-batches with K = 4 stepped after 4 and 8. What happened to the gradients of 9 and 10?",
      keyIdea:
        "The tail is waiting exactly when the last step did not close a group (the same mod-K rule as stepping, on the last step). " +
        "A resumed epoch can also end without running any micro-batch (last step = start step): then nothing was added and nothing is flushed.",
      formula: "lastStep > startStep and lastStep mod K ≠ 0. MiniMind: trainer/train_pretrain.py:75-80 @ d65ef2c.",
    },
    clipGradNorm: {
      nudge: "Is the limit on each tensor's norm, or on the norm of the whole model's gradient seen as one long vector?",
      keyIdea:
        "Compute one global norm: the square root of the sum of squares of every element of every gradient (the norm of the per-tensor norms " +
        "is the same number). Then one factor for all tensors, maxNorm/(norm + 1e-6), capped at 1 so that small gradients pass unchanged. " +
        "Return the norm measured before clipping. Keep it in one tidy scope and return new tensors.",
      formula:
        "n = √(Σ_i Σ_j g_ij²); c = min(1, maxNorm/(n + 1e-6)); g_i ← c·g_i; return {grads, totalNorm: n}. " +
        "MiniMind calls torch.nn.utils.clip_grad_norm_ at trainer/train_pretrain.py:44 @ d65ef2c.",
    },
  },
};

export default hints;
