/** Hints for lesson 13 (feed-forward and mixture of experts): one nudge, one key idea and one formula per function. */
import type { LessonHints } from "../engine/hint-types.js";

const hints: LessonHints = {
  lesson: "lesson-13",
  functions: {
    feedForward: {
      nudge: "Three projections, two branches: which branch goes through the activation, and how are the branches combined before going back to H?",
      keyIdea:
        "Use linear(x, W) from lib/model/linear.ts (it computes x·Wᵀ for any leading shape). silu(z) = z·σ(z) from the sigmoid (TensorFlow.js has no silu helper); " +
        "it applies to the gate branch, which then multiplies the up branch elementwise; down projects the product back to H.",
      formula: "FFN(x) = down( silu(gate(x)) ⊙ up(x) ).  MiniMind: model/model_minimind.py:136-146 @ d65ef2c.",
    },
    moeFeedForward: {
      nudge:
        "Over how many experts is the softmax taken, and what multiplies each chosen expert's output? " +
        "With k = 1 and renormalisation the answer hides: try k = 2 with normTopkProb off.",
      keyIdea:
        "Flatten x to [N, H]; p = softmax(linear(x, gate)) over all E; choose the top k (top-k has no gradient in TensorFlow.js: choose on a gradient-free " +
        "copy of p's values, then use the choice as a constant 0/1 pattern); a [N, E] routing matrix holds p where chosen and 0 elsewhere, rescaled per row when normTopkProb; " +
        "sum routing[:, e] ⊙ feedForward(x, expert_e) over e. Aux loss only when training and α > 0: f = mean over tokens of the 0/1 choices (Σ f = k), " +
        "P̄ = mean of p over tokens. The gradient reaches the router through p (the weights and the aux loss); the top-k choice carries none. " +
        "Running every expert on every token with weight 0 for the unrouted ones gives the same sum as MiniMind, which runs each expert only on its " +
        "routed tokens (a gather and an index_add); that saves E/k of the compute, which matters at scale but not at this size.",
      formula:
        "Per token: p = softmax(gate(x)) over all E experts;  S = the k experts with the largest p;  " +
        "w_e = p_e·1[e ∈ S] (/ (Σ_{e∈S} p_e + 1e-20) if normTopkProb);  y = Σ_{e∈S} w_e·FFN_e(x).  " +
        "Over the N tokens: f_e = (1/N) Σ 1[e ∈ S],  P̄_e = (1/N) Σ p_e,  aux = α·E·Σ_e f_e·P̄_e when training and α > 0, else 0. " +
        "MiniMind: model/model_minimind.py:148-176 @ d65ef2c.",
    },
  },
};

export default hints;
