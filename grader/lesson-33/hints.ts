/** Hints for lesson 33 (AReaL's advantage pipeline): one nudge, one key idea and one formula per function. */
import type { LessonHints } from "../engine/hint-types.js";

const hints: LessonHints = {
  lesson: "lesson-33",
  functions: {
    klEstimator: {
      nudge: "All three estimators start from the same log-ratio δ = logProbs − logProbsBase. Which of them can be negative on a single token?",
      keyIdea:
        "With δ = logProbs − logProbsBase: k1 is δ itself (unbiased, can be negative), k2 is half its square, k3 is e^{−δ} − 1 + δ (negate δ first, then exp(x) − 1 − x); k2 and k3 are ≥ 0. Clamp to [−10, 10] unless applyClamp is false, and throw for any other name.",
      formula: "k1 = δ;  k2 = δ²/2;  k3 = e^{−δ} − 1 + δ;  clip(·, −10, 10). AReaL: areal/utils/data.py:1603-1656 @ 4aef98d8.",
    },
    overlongPenalty: {
      nudge: "The penalty depends only on each response's length. Where does it start, and what does it reach at the generation limit?",
      keyIdea:
        "Length = the row's count of loss-mask tokens. The free zone ends overlongTokens before the limit; from there the penalty falls linearly and is capped at 0 from above, so short answers never get a bonus. Return a new tensor.",
      formula:
        "len_i = Σ_t lossMask[i, t];  L = maxResponseLength − overlongTokens;  rewards'[i] = rewards[i] + min(−(len_i − L) / overlongTokens · overlongPenaltyFactor, 0): " +
        "one of L + k tokens loses k/overlongTokens · factor. AReaL: areal/utils/functional/functional.py:782-804 @ 4aef98d8.",
    },
    arealAdvantages: {
      nudge:
        "Position t of the training engine's tensors describes the prediction of token t + 1. Which of your inputs are still indexed by token, and what moves them into that system?",
      keyIdea:
        "Shape the reward (bias, scale, clip). Roll lossMask and logprobs by −1 (wrap like torch.roll), mask both log-prob tensors, and use −klCtl·klEstimator(old, ref) as a dense reward. " +
        "Zero the reward at seqlen − 1, add the shaped outcome at max(seqlen − 2, 0) (not for no-EOS rows when maskNoEosWithZero). " +
        "GAE runs from T − 2 down, starting from V[T − 1] only for rows with seqlen == T; at masked positions the running value and advantage carry over unchanged, and the slot stores the carried advantage.",
      formula:
        "Per row, seqlen = max(Σ attentionMask, 1), noEos = (seqlen == T).  1. score = clip((rewards + rewardBias)·rewardScaling, −rewardClip, rewardClip).  " +
        "2. mask = roll(lossMask, −1); old = roll(logprobs, −1)·mask; ref = refLogp·mask (or 0).  3. klRewards = −klCtl·klEstimator(old, ref, kind) (clamped to ±10).  " +
        "4. tot = klRewards; tot[seqlen − 1] = 0; tot[max(seqlen − 2, 0)] += score (+ 0 instead when maskNoEosWithZero and noEos).  " +
        "5. GAE from t = T − 2 down (A_{T−1} = 0), starting from V' = noEos ? V_{T−1} : 0 and A' = 0: Â = tot_t + γ·V' − V_t + γλ·A';  if mask_t: V' = V_t, A' = Â;  A_t = A'.  " +
        "6. returns = A + V. Plain arrays are fine: nothing needs gradients. " +
        "AReaL: areal/trainer/ppo/actor.py:145-249 @ 4aef98d8.",
    },
  },
};

export default hints;
