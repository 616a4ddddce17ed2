/** Hints for lesson 3 (inference end to end): one nudge, one key idea and one formula per function. */
import type { LessonHints } from "../engine/hint-types.js";

const hints: LessonHints = {
  lesson: "lesson-3",
  functions: {
    filteredProbabilities: {
      nudge:
        "MiniMind reshapes the scores in a fixed order before the softmax. Which of its four steps looks at probability mass, " +
        "and which earlier steps change that mass?",
      keyIdea:
        "Work on a [B, V] copy (reshape [V] to [1, V] and back). Divide by T first. Penalise each distinct seen id once, by sign: " +
        "divide positive scores by θ, multiply the others. Top-k: everything below the k-th largest score becomes −∞ (ties survive). " +
        "Top-p: sort the scores in descending order (a top-k over all V entries does that, with the original indices); the cumulative softmax of the sorted scores decides, and the mask is shifted right by one so the token " +
        "that crosses p stays. Put the sorted mask back in vocabulary order (scattering by the sorted indices is fine here: sampling needs no gradient), then softmax. " +
        "The order matters: temperature and the penalty commute and top-k ignores scale, but top-p sees the tempered distribution.",
      formula:
        "s = z/T;  s_v ← s_v/θ if s_v > 0 else s_v·θ for v in unique(previous);  s_v ← −∞ if s_v < kth(s);  " +
        "sorted: c_j = Σ_{i≤j} softmax(sorted)_i, drop j > 0 when c_{j−1} > p;  q = softmax(s). " +
        "MiniMind: model/model_minimind.py:267-278 @ d65ef2c.",
    },
    sampleNextToken: {
      nudge: "You already have the distribution. How do you turn one uniform number u in [0, 1) into a token that is picked with probability q_v?",
      keyIdea:
        "Compute q with your filteredProbabilities, read it once with dataSync(), create ONE new Rng(seed) for the whole call, " +
        "and for each row in order take rng.next() and walk the row in vocabulary order, summing probabilities (in float64: plain JS numbers), until the sum exceeds u; skip zero-probability tokens so a filtered one is never returned. " +
        "Return int32 ids: a scalar for [V] logits, [B] for [B, V].",
      formula:
        "token_b = min{ v : Σ_{j≤v} q_{b,j} > u_b },  u_b = the b-th rng.next() of new Rng(seed); return the tokens as an int32 tensor with the logits' shape minus the last axis. " +
        "MiniMind draws with torch.multinomial (model/model_minimind.py:278 @ d65ef2c): same distribution, PyTorch's own generator; the course's seeded draw makes it reproducible in any language.",
    },
  },
};

export default hints;
