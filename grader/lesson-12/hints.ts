/** Hints for lesson 12 (RoPE and the KV cache): one nudge, one key idea and one formula per function. */
import type { LessonHints } from "../engine/hint-types.js";

const hints: LessonHints = {
  lesson: "lesson-12",
  functions: {
    ropeFrequencies: {
      nudge: "How many different frequencies does a head of D numbers have, and in which order does MiniMind lay them out across the D columns of a row?",
      keyIdea:
        "Frequencies f_i = 1/base^(2i/D) for i < D/2 (float32 tensors), angles = the outer product of positions and f, as a float32 tensor op, so each angle is rounded to float32 like PyTorch's, then concat([cos, cos]) and [sin, sin] along the last axis. " +
        "With ropeScaling: the attention factor a multiplies both tables always, the YaRN ramp only when end exceeds the original context L = originalMaxPositionEmbeddings. " +
        "The ramp γ_i goes from 0 for the fast (high-frequency) dimensions, which keep their frequency, to 1 for the slow ones, which are divided by factor; " +
        "its bounds low and high are computed in float64 like MiniMind's Python math calls, and only the ramp itself is a tensor.",
      formula:
        "f_i = 1/base^(2i/D), i = 0 … ⌊D/2⌋−1;  cos[p] = [cos(p·f), cos(p·f)]·a,  sin[p] = [sin(p·f), sin(p·f)]·a (a = 1 without ropeScaling).  " +
        "YaRN (end > L): f_i ← f_i·((1 − γ_i) + γ_i/factor), γ_i = clamp((i − low)/max(high − low, 0.001), 0, 1),  idx(b) = D·ln(L/(2πb))/(2·ln base),  " +
        "low = max(⌊idx(betaFast)⌋, 0),  high = min(⌈idx(betaSlow)⌉, ⌊D/2⌋ − 1) (float64).  MiniMind: model/model_minimind.py:62-78 @ d65ef2c.",
    },
    applyRope: {
      nudge: "Which dimension is paired with dimension 0 in MiniMind's rotation: dimension 1, or dimension D/2?",
      keyIdea:
        "rotate_half splits the last axis into halves [x₁, x₂] and returns [−x₂, x₁]; reshape cos and sin from [S, D] to [S, 1, D] so they broadcast over batch and heads (MiniMind's unsqueeze at dim 1), and rotate q and k the same way. " +
        "Dimension j is paired with j + D/2: each pair turns by the angle p·f_j.",
      formula: "x' = x·cos + rotate_half(x)·sin for both q and k.  MiniMind: model/model_minimind.py:80-84 @ d65ef2c.",
    },
    generate: {
      nudge: "After the first step the cache holds every position so far: which ids does the model still need to see, and what else has to grow by one each step?",
      keyIdea:
        "Loop: past = cache length (0 without a cache); forward ids[:, past:] with the mask and the cache; extend the mask by a column of ones; pick from the last position's logits; " +
        "rows already finished get EOS; append; keep the new cache and dispose the old one; stop when every row has produced EOS. Free every tensor you create except the result. " +
        "Left-out options: eosTokenId 2 (an explicit null never stops), useCache true, greedy unless pickToken is given, no mask. Only generated tokens finish a row: an EOS inside the prompt (a multi-turn chat) does not.",
      formula:
        "Each step: 1. past = cache length (0 without one); forward ids[:, past:] with the mask and the cache;  2. mask = [mask, 1];  " +
        "3. next = pickToken(logits[:, −1, :]), and next = eos for rows already finished;  4. ids = [ids, next], keep the returned cache (when useCache);  " +
        "5. finished |= next == eos; stop when every row is finished (never when eosTokenId is null).  MiniMind: model/model_minimind.py:257-288 @ d65ef2c.",
    },
  },
};

export default hints;
