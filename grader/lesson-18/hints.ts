/** Hints for lesson 18 (LoRA): one nudge, one key idea and one formula per function. */
import type { LessonHints } from "../engine/hint-types.js";

const hints: LessonHints = {
  lesson: "lesson-18",
  functions: {
    loraLinear: {
      nudge:
        "The frozen layer still runs exactly as before. The adapter is a second, narrow path beside it: first down to r numbers, then back up to `out`. " +
        "How do the two paths combine, and which one does α / r scale?",
      keyIdea:
        "Compute the frozen output x·Wᵀ, then the adapter's output (x·Aᵀ)·Bᵀ (A squeezes `in` to r, B expands r to `out`), multiply only the adapter's output by α / r, and add. " +
        "r is the number of rows of A. lib/model/linear.ts's `linear(x, W)` computes x·Wᵀ over the last axis of any rank ≥ 2 tensor. Keep everything in tensor ops so the gradient reaches A and B.",
      formula:
        "y = x·Wᵀ + (α / r)·(x·Aᵀ)·Bᵀ,  r = A.shape[0]. Steps: the base projection of x by W; x projected by A, then that projected by B; scale the second by α / r and add the two, in one tidy scope. " +
        "MiniMind: LoRA.forward and forward_with_lora, model/model_lora.py:17-18, 29-30 @ d65ef2c (there α = r: no scale).",
    },
    mergeLora: {
      nudge: "(x·Aᵀ)·Bᵀ = x·(B·A)ᵀ: the adapter is itself a linear layer. What is its weight, and what shape must it have to be added to W?",
      keyIdea:
        "The adapter's weight is B·A: [out, r]·[r, in] = [out, in], the same shape as W. Scale it by α / r (the same scale as the forward pass) and add it to W. " +
        "Use tensor ops only: the course's LoRA model builds its effective weights with this function at every step, so A and B must get gradients through it.",
      formula: "W' = W + (α / r)·B·A. Steps: the matrix product B·A (shape [out, in], like W), scaled by α / r, added to W. MiniMind: merge_lora, model/model_lora.py:56-65 @ d65ef2c.",
    },
  },
};

export default hints;
