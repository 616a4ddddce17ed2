/** Hints for lesson 24 (GRPO and CISPO): one nudge, one key idea and one formula per function. */
import type { LessonHints } from "../engine/hint-types.js";

const hints: LessonHints = {
  lesson: "lesson-24",
  functions: {
    groupRelativeAdvantages: {
      nudge:
        "There is no critic: an answer is good if it beat the other answers to the same prompt. " +
        "The G answers to one prompt sit next to each other in the batch: what shape makes each group a row?",
      keyIdea:
        "Reshape the rewards to [N, G], take each row's mean and standard deviation, normalise, and flatten back. " +
        "The standard deviation is the population one (divide by G, not G − 1; TensorFlow.js's moments gives that variance), and eps is added to the std, not inside the square root. " +
        "A group whose rewards are all equal must come out 0 (to float32 rounding), never NaN: E[r²] − μ² cancels badly in float32, so take the mean of (r − μ)².",
      formula:
        "A_i = (r_i − μ_g) / (σ_g + 1e-4), σ_g = √(mean_g (r − μ_g)²). " +
        "MiniMind: trainer/train_grpo.py:121-124 @ d65ef2c (std(dim=1, unbiased=False), then repeat_interleave).",
    },
    grpoCompletionMask: {
      nudge:
        "The answer ends at its first EOS, and the EOS itself is part of the answer. What should happen to a row that never produced an EOS, " +
        "and can an EOS id that sits in the padding end an answer?",
      keyIdea:
        "Mark EOS positions only where the pad mask is 1. For rows with an EOS, its index is the first marked position (the arg-max of a 0/1 row returns the first maximum); " +
        "rows without one (no position marked) use R − 1, because argMax of an all-zero row is 0. Then keep positions j ≤ that index that are also real tokens. Return int32.",
      formula:
        "isEos = (ids == EOS) ∧ pad;  e_b = any(isEos_b) ? argmax(isEos_b) : R − 1 (the first real EOS);  mask[b, j] = (j ≤ e_b) ∧ pad[b, j], int32. " +
        "MiniMind: trainer/train_grpo.py:126-130 @ d65ef2c.",
    },
    tokenKlPenalty: {
      nudge:
        "The same penalty as lesson 23's reference KL, but returned per token, without a mask or a mean. Which order of subtraction does k3 need?",
      keyIdea:
        "u = ref − policy, then e^u − u − 1: never negative, 0 only where the two log-probs agree. The order matters because the estimator is not symmetric. " +
        "Take e^u from the difference, not as exp(ref) / exp(policy) (0/0 below about −104).",
      formula: "u = ref − policy;  kl = exp(u) − u − 1, elementwise (unmasked). MiniMind: trainer/train_grpo.py:132-133 @ d65ef2c.",
    },
    grpoPolicyLoss: {
      nudge:
        "It is PPO's clipped surrogate with one advantage per answer instead of per token, plus the KL term inside every token's loss. " +
        "How is it averaged: over all tokens at once, or answer by answer?",
      keyIdea:
        "ρ = exp(policy − old); broadcast the [B] advantages along each row ([B, 1]); keep min(ρA, clip(ρ, 1 − ε, 1 + ε)A), subtract β·kl, negate. " +
        "Then per row Σ(ℓ·m)/max(Σm, 1), and the mean over rows. The gradient must flow through ρ and through the KL term: detach neither. " +
        "Exponentiate the difference, never exp(policy) / exp(old): log-probs below about −104 underflow to 0 in float32.",
      formula:
        "ρ = exp(policy − old), A broadcast along each row;  ℓ_t = −(min(ρ_t·A, clip(ρ_t, 1 − ε, 1 + ε)·A) − β·kl_t);  loss = mean_b[Σ_t ℓ_t·m_t / max(Σ_t m_t, 1)]. " +
        "MiniMind: trainer/train_grpo.py:132-134, 138-143 @ d65ef2c.",
    },
    cispoPolicyLoss: {
      nudge:
        "CISPO never drops a token from the gradient; it bounds how hard each token pushes. Which factor is the learning signal, and which is only a weight?",
      keyIdea:
        "The weight is min(ρ, ε_high), capped from above only (no 1 + in front of ε_high), and wrapped in stopGradient so no gradient flows through it. " +
        "It multiplies A and the policy's log-prob itself: log π is what carries the gradient. Same KL term and same per-sequence, then batch, mean as GRPO. " +
        "The value is the same with or without stopGradient; the grader checks the gradient.",
      formula:
        "ρ = exp(policy − old);  w_t = stopGradient(min(ρ_t, ε_high));  ℓ_t = −(w_t·A·log π_θ(y_t) − β·kl_t);  loss = mean_b[Σ_t ℓ_t·m_t / max(Σ_t m_t, 1)]. " +
        "The gradient per token is then w·A (through log π), even where GRPO's clip would have zeroed it. " +
        "MiniMind: trainer/train_grpo.py:132-137, 143 @ d65ef2c.",
    },
  },
};

export default hints;
