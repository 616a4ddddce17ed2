/** Hints for lesson 32 (GSPO and SAPO): one nudge, one key idea and one formula per function. */
import type { LessonHints } from "../engine/hint-types.js";

const hints: LessonHints = {
  lesson: "lesson-32",
  functions: {
    sequenceLevelRatio: {
      nudge:
        "GSPO wants one ratio per sequence. If every token's ratio is exp(log-ratio), which single number summarises a product of ratios without growing with the length?",
      keyIdea:
        "Average the log-ratios over the row's masked-in tokens, then exponentiate: that is the geometric mean of the token ratios. Average the advantages over the same tokens. " +
        "Divide by the row's mask count clamped to at least 1, put the two row values on every masked-in token and 0 on padding. " +
        "Through the mean, each masked-in log-ratio of row i gets the gradient ratio_i / n_i. " +
        "Stay in tensor ops (the ratio needs a gradient) and build the zeros as a fresh tensor of the shape, not as zeros-like the log-ratio tensor (which ties them to its gradient).",
      formula:
        "n_i = max(Σ_t m, 1);  ratio = where(m, exp(Σ_t m·logRatio / n_i), 0);  advantages = where(m, Σ_t m·A / n_i, 0). " +
        "AReaL: areal/utils/functional/functional.py:128-149 @ 4aef98d8.",
    },
    sapoLoss: {
      nudge:
        "SAPO keeps the ratio r but replaces PPO's clip by a smooth gate: a sigmoid centred at r = 1. How must you scale σ(τ(r − 1)) so that its slope at r = 1 is exactly 1?",
      keyIdea:
        "Validate first: τ_pos ≤ 0, τ_neg ≤ 0 or an unknown level must throw. Then r = exp(logprobs − oldLogprobs) (or your sequenceLevelRatio pair at the sequence level). " +
        "Gate g = (4/τ)·σ(τ(r − 1)), with τ_pos where A > 0 and τ_neg elsewhere; the loss per token is −g·A; sum it over the mask and divide by the mask count (at least 1). " +
        "Check: at r = 1 the gate's slope dg/dr is 4σ(0)(1 − σ(0)) = 1, so the gradient there equals the vanilla policy gradient.",
      formula:
        "r = exp(logprobs − oldLogprobs) (token level) or GSPO's sequence-level ratio and mean advantage;  τ = τ_pos where A > 0, else τ_neg;  " +
        "g = (4/τ)·σ(τ·(r − 1));  loss = Σ_mask −g·A / max(count(mask), 1). " +
        "AReaL: areal/utils/functional/functional.py:590-623 @ 4aef98d8.",
    },
  },
};

export default hints;
