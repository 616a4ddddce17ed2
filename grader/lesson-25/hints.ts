/** Hints for lesson 25 (rewards, log-probs and KL): one nudge, one key idea and one formula per function. */
import type { LessonHints } from "../engine/hint-types.js";

const hints: LessonHints = {
  lesson: "lesson-25",
  functions: {
    perTokenLogps: {
      nudge:
        "The model may have returned logits for only the last nKeep + 1 positions, and the logits at a position score the token after it. " +
        "Which nKeep logit positions score the last nKeep tokens, and which position is left over?",
      keyIdea:
        "Count from the end of each tensor separately: take the nKeep logit positions just before the last one (start at L − nKeep − 1, where L is the logits' own length, not the token count T), " +
        "and the last nKeep token ids (start at T − nKeep); the last position's logits predict a token that does not exist yet and are dropped. Apply log-softmax over the vocabulary in one step (a log-softmax subtracts the max, so large logits stay finite; the log of a softmax gives −Inf once a probability underflows, at spreads beyond about 104), then pick each target's entry. " +
        "Pick with a one-hot multiply and a sum over the last axis: gatherND has no gradient in TensorFlow.js, and the current policy's log-probs must carry one. " +
        "nKeep ≤ 0 returns an empty [B, 0] tensor (Python's ids[:, -0:] would be the whole row). " +
        "A temperature T means the sampler drew from softmax(logits / T): divide the logits by T before the log-softmax (not the log-probs after it).",
      formula:
        "out[b, j] = log_softmax(logits[b, L − nKeep − 1 + j] / temperature)[ids[b, T − nKeep + j]], j = 0 … nKeep − 1. " +
        "Steps: slice both tensors; log-softmax over the vocabulary; a one-hot of the int32 targets over V, multiplied in and summed over the last axis; all in one tidy scope. " +
        "MiniMind: trainer/rollout_engine.py:24-36 @ d65ef2c; the temperature: AReaL areal/utils/functional/vocab_parallel.py:15-20 @ 4aef98d8.",
    },
    ppoResponseMask: {
      nudge:
        "Where does a response end: at its EOS, or at the padding? Is the EOS token itself something the policy decided, " +
        "and can an EOS id sitting in a pad position end anything?",
      keyIdea:
        "Per row, look only at real positions (pad mask 1), all R of them (holes in the pad mask mean a real EOS can sit beyond Σ pad): the length is the index of the first EOS among them plus 1, or, with no such EOS, the number of real positions; clamp it to at least 1. " +
        "Then keep position j when j < length AND the pad mask is 1, so an all-padding row still keeps nothing and holes in the pad mask stay 0. " +
        "Traps: first EOS, not last; EOS included; count real positions, not R. No gradient is involved, so reading the tensors with dataSync() and looping is fine. " +
        "Return float32 0/1 (the grader checks the dtype), not int32 or bool.",
      formula:
        "len_b = max(1, e_b + 1 if row b has an EOS at a real position (e_b the first) else Σ_j pad[b, j]);  mask[b, j] = 1[j < len_b]·pad[b, j], float32. " +
        "MiniMind: trainer/train_ppo.py:122-126 @ d65ef2c.",
    },
    repetitionPenalty: {
      nudge:
        "MiniMind tokenises with Python's regex \\w+|[^\\w\\s] on the lower-cased text. In which ways do JavaScript's \\w and \\s disagree with Python's?",
      keyIdea:
        "Lower-case the whole text first, with toLowerCase (Python's lower(); not upper case, not token by token: 'İ' lower-cases to two code points and 'ß' upper-cases to 'SS'). Tokens are runs of word characters, or single characters that are neither word characters nor whitespace: punctuation marks are tokens of their own, so do not split on spaces. " +
        "Python's \\w is Unicode-aware: write it as [\\p{L}\\p{N}_] with the u flag (a run of Chinese characters is one token). Python's whitespace is PY_WHITESPACE from python-text.ts (NEL and \\x1c-\\x1f are spaces, the BOM is a token). " +
        "Form the G = tokens − n + 1 n-grams, count the U distinct ones (join a gram's tokens in a way that cannot collide), scale by cap·2 and cap the result. G ≤ 0 gives 0.",
      formula:
        "rep = min(cap, (G − U)·cap·2 / G), and 0 when G ≤ 0; defaults n = 3, cap = 0.5. " +
        "MiniMind: trainer/train_ppo.py:29-32 @ d65ef2c.",
    },
    ruleReward: {
      nudge:
        "Three rules, each a ±step, and a penalty. Which text does each rule measure: the whole response, the part before the first </think>, or the answer after it? " +
        "And how does Python count a length?",
      keyIdea:
        "Length bonus on the stripped whole response; if there is a </think>, split at the FIRST one: the thinking (everything before it, <think> tag included) gets its own length rule, " +
        "the number of </think> tags its own ±0.25, and the answer is what follows, stripped. Without the tag the answer is the whole response. Subtract repetitionPenalty of the answer only. " +
        "Port Python faithfully: strip() with Python's whitespace (PY_WHITESPACE, not trim(): NEL is stripped, the BOM kept), len() in code points ([...s].length, not .length), and both window ends inclusive. " +
        "MiniMind accumulates the sum in a float32 tensor; a JavaScript number agrees to float32 rounding.",
      formula:
        "r = (20 ≤ len(s.strip()) ≤ 800 ? +0.5 : −0.5) + [if '</think>' in s: (20 ≤ len(think.strip()) ≤ 300 ? +1.0 : −0.5) + (exactly one '</think>' ? +0.25 : −0.25)] − rep(answer). " +
        "MiniMind: trainer/train_ppo.py:51-75 @ d65ef2c (the rules are lines 60-67; the reward model of lines 69-73 is left out).",
    },
    approxKl: {
      nudge:
        "This number decides early stopping, so positive and negative log-ratios must not cancel. Which even function of the log-ratio x is the second-order estimate of the KL?",
      keyIdea:
        "Square the log-ratio you are given (it is already log ρ: do not exponentiate it) and halve it, because the 0.25 threshold assumes the ½. " +
        "Average over the kept tokens only: divide by the mask's sum, clamped to at least 1, so padding does not dilute it and an all-masked batch gives 0, not NaN. " +
        "Tensor ops in one tidy scope; return a scalar.",
      formula:
        "approxKl = Σ(½·x²·m) / max(Σm, 1), x = log π_new − log π_old. " +
        "MiniMind: trainer/train_ppo.py:194-202 @ d65ef2c (early stop once it exceeds early_stop_kl = 0.25).",
    },
    clipFraction: {
      nudge:
        "A token is clipped when its ratio has left the window [1 − ε, 1 + ε]. Which side or sides count, and does a ratio exactly on the edge count?",
      keyIdea:
        "Measure the distance |ρ − 1| on the ratio itself (not on log ρ), compare strictly with ε so both sides count and a distance equal to ε does not, cast the boolean to float32, " +
        "and take the masked mean over kept tokens with the denominator clamped to at least 1. " +
        "Compare the distance, not ρ with 1 ± ε: float32 rounds 1 + ε and ρ − 1 differently (1.2 is stored as 1.20000005, so its distance from 1 exceeds 0.2, while ρ > 1.2 is false).",
      formula:
        "clipfrac = Σ(1[|ρ − 1| > ε]·m) / max(Σm, 1). Steps: the absolute distance from 1, a strict greater-than against ε (not greater-or-equal), cast to float32, then the masked mean. " +
        "MiniMind: trainer/train_ppo.py:204-206 @ d65ef2c.",
    },
  },
};

export default hints;
