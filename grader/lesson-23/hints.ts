/** Hints for lesson 23 (PPO, end to end): one nudge, one key idea and one formula per function. */
import type { LessonHints } from "../engine/hint-types.js";

const hints: LessonHints = {
  lesson: "lesson-23",
  functions: {
    responseLogpPositions: {
      nudge:
        "A causal language model's logits at position p are its guess for the token at p + 1. " +
        "Where in the full sequence does response token j sit, and which position made the guess for it?",
      keyIdea:
        "Response token j of row b sits at promptLens[b] + j, so it was predicted one position earlier. " +
        "Build a column of per-row start positions [B, 1] and a row of offsets 0 … R−1 [1, R]; adding them broadcasts to [B, R]. " +
        "Keep everything int32: in TensorFlow.js, int32 minus a plain JS number becomes float32, and gather needs integer indices.",
      formula:
        "positions[b, j] = promptLens[b] − 1 + j. " +
        "Steps: subtract an int32 one from promptLens and make it a [B, 1] column; make the int32 offsets 0 … R − 1 a [1, R] row; add them (broadcasting), in one tidy scope. " +
        "MiniMind builds the same positions from the prompt lengths and the response index (trainer/train_ppo.py:120-121 @ d65ef2c).",
    },
    maskedGae: {
      nudge:
        "The advantage at step t needs the advantage at step t + 1, so the loop runs backwards, from t = R − 1 down to 0, one row at a time. " +
        "What value and what advantage come after the last position?",
      keyIdea:
        "Two passes. First the GAE recursion over all R positions, with V = 0 and A = 0 after the end and the mask ignored (MiniMind masks only afterwards); " +
        "returns are A + V from these raw advantages. Then normalise: the mean and the variance count only tokens with mask 1 " +
        "(population variance: divide by the count, clamped to at least 1), and the result is multiplied by the mask so padding ends at 0. " +
        "Weight each position by its own mask entry: a mask may have holes, so it is not a length per row. " +
        "Reading each tensor once with dataSync() and looping over Float32Arrays is the simplest and fastest way: GAE needs no gradients, " +
        "and a per-timestep tensor loop costs R small kernel launches (the README's benchmark table times both). The recursion is the same either way.",
      formula:
        "δ_t = r_t + γ·V_{t+1} − V_t (V_R = 0);  A_t = δ_t + γλ·A_{t+1} (A_R = 0);  returns = A + V;  " +
        "n = max(Σm, 1);  μ = Σ(A·m)/n;  σ² = Σ((A − μ)²·m)/n;  advantages = (A − μ)/√(σ² + 1e-8) · m. " +
        "MiniMind: trainer/train_ppo.py:139-150 @ d65ef2c.",
    },
    ppoPolicyLoss: {
      nudge:
        "The loss compares the policy being trained with the one that generated the data, token by token, through a probability ratio. " +
        "You are given log-probabilities: how does a difference of logs become a ratio?",
      keyIdea:
        "ρ = exp(new − old). PPO forms the objective twice per token, once with ρ and once with ρ clipped to [1 − ε, 1 + ε], and keeps the pessimistic one. " +
        "Written as a loss (negated), that is the max of −A·ρ and −A·clip(ρ), not the min. " +
        "Average it over the tokens the mask keeps, Σ(x·m) / max(Σm, 1), not over all B·R positions. " +
        "Exponentiate the difference, never exp(new) / exp(old): log-probs below about −104 underflow to 0 in float32. Keep it in tensor ops: the gradient must reach newLogps.",
      formula:
        "ρ = exp(newLogps − oldLogps);  loss = Σ m·max(−A·ρ, −A·clip(ρ, 1 − ε, 1 + ε)) / max(Σm, 1). " +
        "Steps: exponentiate the difference, clip the ratio, take the elementwise maximum of the two negated terms, then the masked sum over the clamped count, in one tidy scope. " +
        "MiniMind: trainer/train_ppo.py:204-211 @ d65ef2c (it adds kl_coef times the reference penalty on line 212; this function does not).",
    },
    referenceKlPenalty: {
      nudge:
        "Per token, the penalty must be 0 when the policy agrees with the reference and positive otherwise, even though a single sample's log-ratio can have either sign. " +
        "Which simple function of u = ref − policy is never negative and is 0 only at u = 0?",
      keyIdea:
        "Use the k3 estimator e^u − u − 1 with u = ref − policy: since e^x ≥ 1 + x it is never negative. The order of the subtraction matters, because the estimator is not symmetric. " +
        "Then take the masked mean over the response tokens, with the denominator clamped to at least 1 so that an all-masked batch gives 0 instead of NaN. " +
        "Compute e^u from the difference u, not as exp(ref) / exp(policy), which is 0/0 for log-probs below about −104.",
      formula:
        "u = refLogps − policyLogps;  penalty = Σ m·(e^u − u − 1) / max(Σm, 1). " +
        "MiniMind: trainer/train_ppo.py:207-208 @ d65ef2c.",
    },
    clippedValueLoss: {
      nudge:
        "The critic should not move its prediction too far from what it predicted during the rollout in one update. " +
        "How would you keep V within a distance c of V_old, and which error would you then trust?",
      keyIdea:
        "Clip the new values to [V_old − c, V_old + c] (around the rollout's values, not around 0) and measure the squared error to the returns both with and without clipping. " +
        "Keep the larger of the two per token, so clipping can never hide a large error; then take the masked mean (denominator max(Σm, 1)) and halve it. " +
        "Stay in tensor ops (no dataSync): the critic learns through this loss's gradient with respect to values.",
      formula:
        "V_clip = min(max(V, V_old − c), V_old + c);  loss = 0.5 · Σ m·max((V − R)², (V_clip − R)²) / max(Σm, 1). " +
        "TensorFlow.js's clipByValue takes only plain numbers as bounds, so clip with an elementwise maximum and minimum against the tensor bounds V_old ∓ c. " +
        "MiniMind: trainer/train_ppo.py:213-216 @ d65ef2c.",
    },
  },
};

export default hints;
