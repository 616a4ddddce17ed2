/** Hints for lesson 11 (attention): one nudge, one key idea and one formula per function. */
import type { LessonHints } from "../engine/hint-types.js";

const hints: LessonHints = {
  lesson: "lesson-11",
  functions: {
    repeatKv: {
      nudge: "With Hkv = 2 kv heads [a, b] and nRep = 2, should the four query heads read [a, a, b, b] or [a, b, a, b]? Which axis gets the copies?",
      keyIdea:
        "Insert a copy axis right after the kv-head axis, fill it with nRep copies, then merge the two axes: [B, T, Hkv, D] → [B, T, Hkv, nRep, D] → [B, T, Hkv·nRep, D]. " +
        "TensorFlow.js's tile has no gradient above rank 4, so fold B and T first ([B·T, Hkv, 1, D]). With nRep = 1 return x.",
      formula: "out[b, t, j, :] = x[b, t, ⌊j / nRep⌋, :].  MiniMind: model/model_minimind.py:86-89 @ d65ef2c.",
    },
    attention: {
      nudge: "Write down the shape after every step, starting from x [B, S, H]: where do the heads appear, where do the P cached keys join, and where does the causal triangle sit when T = P + S?",
      keyIdea:
        "linear → reshape to heads → rmsNorm each head (qNorm/kNorm) → applyRope → concat the past along positions (this k, v is presentKv) → repeatKv → transpose heads to axis 1 → " +
        "scores q·kᵀ/√D → add −∞ where key j > P + i and (1 − mask)·(−1e9) → softmax over keys → ·v → transpose back and reshape to [B, S, Hq·D] → linear with wo. " +
        "QK-norm comes before RoPE, over each head's D; the cache keeps k and v after the concat and before repeatKv. " +
        "Options left out (undefined) mean the same as null or false: no mask, no cache, no presentKv; eps defaults to 1e-6. Mask each key by its own 0/1 (a mask can have holes).",
      formula:
        "out_i = Σ_j softmax_j(q_i·k_j/√D + m_ij) v_j with m_ij = −∞ for j > P + i and −1e9 for padded keys; query head h reads kv head ⌊h/nRep⌋.  " +
        "Step by step: q = x·Wqᵀ, k = x·Wkᵀ, v = x·Wvᵀ split into heads of D; q ← RMSNorm(q)·qNorm, k ← RMSNorm(k)·kNorm; RoPE on q, k; " +
        "k, v ← concat(past, new); scores [B, Hq, S, T]; softmax; ·v; merge heads; ·Woᵀ. " +
        "MiniMind's fused path (scaled_dot_product_attention) computes the same numbers when no mask or cache is given; this is its explicit path.  " +
        "MiniMind: model/model_minimind.py:111-134 @ d65ef2c.",
    },
  },
};

export default hints;
