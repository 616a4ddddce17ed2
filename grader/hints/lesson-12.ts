/** Hints for lesson 12 (RoPE and the KV cache): one nudge, one key idea and one formula per function. */
import type { LessonHints } from "./types.js";

const hints: LessonHints = {
  lesson: "lesson-12",
  functions: {
    ropeFrequencies: {
      nudge: "How many different frequencies does a head of D numbers have, and in which order does MiniMind lay them out across the D columns of a row?",
      keyIdea:
        "Frequencies f_i = 1/base^(2i/D) for i < D/2 (float32 tensors), angles = tf.outerProduct(positions, f) so each angle is rounded to float32 like PyTorch's, then concat([cos, cos]) and [sin, sin] along the last axis. " +
        "With ropeScaling: the attention factor always, the YaRN ramp only when end exceeds the original context.",
      formula:
        "cos[p] = [cos(p·f), cos(p·f)]·a, f_i ← f_i·((1 − γ_i) + γ_i/factor), γ_i = clamp((i − low)/max(high − low, 0.001), 0, 1).  MiniMind: model/model_minimind.py:62-78 @ d65ef2c.",
    },
    applyRope: {
      nudge: "Which dimension is paired with dimension 0 in MiniMind's rotation: dimension 1, or dimension D/2?",
      keyIdea:
        "rotate_half splits the last axis into halves [x₁, x₂] and returns [−x₂, x₁]; reshape cos and sin from [S, D] to [S, 1, D] so they broadcast over batch and heads, and rotate q and k the same way.",
      formula: "x' = x·cos + rotate_half(x)·sin for both q and k.  MiniMind: model/model_minimind.py:80-84 @ d65ef2c.",
    },
    generate: {
      nudge: "After the first step the cache holds every position so far: which ids does the model still need to see, and what else has to grow by one each step?",
      keyIdea:
        "Loop: past = cache length (0 without a cache); forward ids[:, past:] with the mask and the cache; extend the mask by a column of ones; pick from the last position's logits; " +
        "rows already finished get EOS; append; keep the new cache and dispose the old one; stop when every row has produced EOS. Free every tensor you create except the result.",
      formula: "next = pickToken(logits[:, −1, :]); next = finished ? eos : next; ids = [ids, next]; finished |= next == eos.  MiniMind: model/model_minimind.py:257-288 @ d65ef2c.",
    },
  },
};

export default hints;
