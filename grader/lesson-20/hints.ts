/** Hints for lesson 20 (distillation): one nudge, one key idea and one formula. */
import type { LessonHints } from "../engine/hint-types.js";

const hints: LessonHints = {
  lesson: "lesson-20",
  functions: {
    distillationLoss: {
      nudge:
        "Two teachers grade the student at once: the labels (one right token per position) and the teacher model (a whole distribution per position). " +
        "Which positions count, which logits predict which label, and which of the two terms is softened by the temperature?",
      keyIdea:
        "Shift first: logits at 0 … T−2 against labels at 1 … T−1, and cut the teacher's vocabulary to the student's V. A position counts when its label is not −100. " +
        "CE: the masked mean of −log q(label) with raw logits. Distill: at temperature T, p = softmax(teacher/T) and log q = logSoftmax(student/T); the KL Σ p·(log p − log q) per position, its mean over counted positions, times T². " +
        "Keep the teacher off the tape (lib/autograd.ts's stopGradient), and return 0s when nothing counts.",
      formula:
        "m_i = [label_{i+1} ≠ −100], N = Σ m;  ce = Σ m·(−log softmax(s_i)[y_{i+1}]) / (N + 1e-8);  " +
        "distill = T² · Σ_i m_i Σ_v p_{i,v}(log p_{i,v} − log q_{i,v}) / max(N, 1) with p = softmax(t_i/T), q = softmax(s_i/T);  loss = α·ce + (1 − α)·distill. " +
        "MiniMind: trainer/train_distillation.py:25-36 (distillation_loss) and 51-93 @ d65ef2c.",
    },
  },
};

export default hints;
