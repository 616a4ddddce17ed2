/** Hints for lesson 22 (the DPO loss): one nudge, one key idea and one formula per function. */
import type { LessonHints } from "../engine/hint-types.js";

const hints: LessonHints = {
  lesson: "lesson-22",
  functions: {
    tokenLogProbs: {
      nudge:
        "The model gives scores (logits) over the whole vocabulary at every position, and the label says which token was actually there. " +
        "What turns scores into log-probabilities, and over which axis?",
      keyIdea:
        "Normalise over the vocabulary (the last axis) with a log-softmax, then keep only the entry at each label. " +
        "Pick it with a one-hot mask of the labels multiplied in and summed over the vocabulary: a gather by index gives the same numbers but gatherND has no gradient in TensorFlow.js, and DPO trains through these values.",
      formula:
        "logp[b, t] = log_softmax(logits[b, t, :])[labels[b, t]] = logits[b, t, y] − log Σ_v exp(logits[b, t, v]), picked as Σ_v logSoftmax(logits)[b, t, v] · oneHot(labels, V)[b, t, v]. " +
        "Steps: log-softmax over the last axis; a float32 one-hot of the labels over V; multiply the two and sum over the vocabulary axis; all in one tidy scope. " +
        "MiniMind: logits_to_log_probs, trainer/train_dpo.py:25-31 @ d65ef2c.",
    },
    dpoLoss: {
      nudge:
        "A response's log-probability is built from its tokens' log-probabilities, and only the response tokens count. " +
        "Then the batch holds two kinds of rows: which rows are the chosen answers, and which row is each one's rejected partner?",
      keyIdea:
        "Per row, the masked SUM of log-probs (not a mean), for the policy and for the reference. Rows 0 … B/2 − 1 are chosen, rows B/2 … B − 1 rejected, pair i = rows i and i + B/2. " +
        "The margin is how much more the policy prefers chosen over rejected than the reference did. " +
        "Compute −log σ(x) as softplus(−x) = log(1 + e^(−x)): −log(sigmoid(x)) overflows for very negative x, and TensorFlow.js's logSigmoid has a gradient that breaks inside a tidy scope. " +
        "Keep every step in tensor ops (no dataSync), or no gradient reaches the policy.",
      formula:
        "s_b = Σ_t logp[b, t]·mask[b, t] (per row, a SUM);  z_i = (s^π_i − s^π_{i+B/2}) − (s^ref_i − s^ref_{i+B/2});  loss = mean_i −log σ(β·z_i) = mean_i softplus(−β·z_i). " +
        "MiniMind: dpo_loss, trainer/train_dpo.py:34-50 @ d65ef2c.",
    },
  },
};

export default hints;
