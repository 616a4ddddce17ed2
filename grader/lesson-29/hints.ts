/** Hints for lesson 29 (decoupled PPO): one nudge, one key idea and one formula per function. */
import type { LessonHints } from "../engine/hint-types.js";

const hints: LessonHints = {
  lesson: "lesson-29",
  functions: {
    decoupledPpoLoss: {
      nudge:
        "Three log-probabilities come in, and the old one used to do two jobs: correct for who sampled the token, and centre the trust region. " +
        "Which pair of policies forms the clipped ratio, and which pair forms the (optional) behaviour weight?",
      keyIdea:
        "Throw an Error first if cClip is given and not > 1. Count the ORIGINAL loss mask (cast the bool mask to float32, at least 1): that is the denominator even after rejection sampling drops tokens. " +
        "Rejection sampling (only when configured) uses w = π_prox/π_behave: `mask` ANDs the mask with w ≤ upper, `clamp` caps w at upper; w is 0 off the mask. Without it there is no weight at all (w = 1). " +
        "The ratio is r = π_θ/π_prox, not against π_behave, and 0 off the mask; at sequence level replace r by the row's exp(mean log-ratio) (geometric, not arithmetic mean) and A by the row's mean advantage, both over the tokens of the mask after rejection sampling. " +
        "Clip to [1 − ε, 1 + ε_high] (ε_high defaults to ε) and keep the max of the two negated terms; clipMask is the strict −A·r < −A·clip(r). " +
        "Dual clip caps the token loss at c·|A| (absolute value: it only bites for A < 0). " +
        "Masks are bool: select and combine them with where and a logical and, and keep everything in tensor ops in one tidy scope, because the grader differentiates the loss with respect to logprobs.",
      formula:
        "n = max(count(lossMask), 1);  r = exp(logprobs − proximal) on the mask, else 0;  L = max(−A·r, −A·clip(r, 1 − ε, 1 + ε_high));  clipMask = (−A·r < −A·clip(r)) ∧ mask;  " +
        "with c: dualClipMask = (c·|A| < L) ∧ mask, L = min(L, c·|A|);  with rejection sampling: L = L·w, w = exp(proximal − old) (`mask`: mask ∧ w ≤ upper; `clamp`: w = min(w, upper));  " +
        "loss = Σ_mask L / n;  importanceWeight = r.  " +
        "Sequence level: n_b = max(count of row b's mask after rejection sampling, 1), r_b = exp(Σ_mask (logprobs − proximal) / n_b), A_b = Σ_mask A / n_b, broadcast over the row and 0 off the mask. " +
        "AReaL: areal/utils/functional/functional.py:479-559 @ 4aef98d8 (sequence level 128-149, rejection sampling 229-252 and 391-420).",
    },
    distillLoss: {
      nudge:
        "Two branches, chosen by rlLossWeight. In pure KD (weight 0) the teacher-minus-student log-prob is a reward: which factor is left to carry the gradient? In KDRL, what is added to the weighted RL loss?",
      keyIdea:
        "mask as float, n = max(Σ mask, 1), the teacher detached. KD: reward = teacher − stopGradient(logprobs); term = exp(logprobs − oldLogp)·reward·mask; loss = −distillLossWeight·Σ term / n; rklStat = −term. " +
        "KDRL: perToken = (logprobs − teacher)·mask; loss = rlLossWeight·rlLoss + distillLossWeight·Σ perToken / n; rklStat = perToken. Defaults: rlLossWeight 1, distillLossWeight 0.005. " +
        "stopGradient is in lib/autograd.ts.",
      formula:
        "KD: L = −w_d·Σ_mask e^{lp − old}·sg(lt − lp) / n;  KDRL: L = w_rl·L_RL + w_d·Σ_mask (lp − lt) / n. " +
        "AReaL: areal/trainer/ppo/actor.py:482-512 @ 4aef98d8.",
    },
  },
};

export default hints;
