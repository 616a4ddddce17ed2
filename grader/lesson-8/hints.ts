/** Hints for lesson 8 (config and parameter count): one nudge, one key idea and one formula. */
import type { LessonHints } from "../engine/hint-types.js";

const hints: LessonHints = {
  lesson: "lesson-8",
  functions: {
    countParams: {
      nudge:
        "Every nn.Linear in MiniMind has no bias, so a layer from a to b features holds a·b weights, and an RMSNorm holds one gain per feature. " +
        "List every module one block creates, then what sits outside the blocks.",
      keyIdea:
        "Symbols: V = vocabSize, H = hiddenSize, L = numHiddenLayers, n_q = numAttentionHeads, n_kv = numKeyValueHeads, d = headDim, " +
        "I = intermediateSize, E = numExperts, k = numExpertsPerTok, I_e = moeIntermediateSize. " +
        "Per block: q (H → n_q·d), k and v (H → n_kv·d each: GQA), o (n_q·d → H); two H-wide norms and two d-wide QK-norms; " +
        "a SwiGLU MLP of three matrices, or for MoE a router E·H plus E experts of 3·H·I_e. Outside: the embedding V·H (the tied lm_head is the same tensor, " +
        "counted once) and the final norm H. Total is the sum of the parts (experts are already inside feedForward); " +
        "active = total minus the experts a token skips, and equals total without MoE (then leave experts out).",
      formula:
        "embedding = V·H·(tied ? 1 : 2);  attention = L·(2·H·n_q·d + 2·H·n_kv·d);  feedForward = L·3·H·I or L·(E·H + E·3·H·I_e);  " +
        "norms = L·(2H + 2d) + H;  experts = L·E·3·H·I_e;  active = total − L·(E − k)·3·H·I_e. " +
        "MiniMind: model/model_minimind.py:10-45, 100-105, 140-153, 182-204, 241-242 and trainer/trainer_utils.py:18-28 @ d65ef2c.",
    },
  },
};

export default hints;
