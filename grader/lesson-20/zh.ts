/** Lesson 20's hints and named mistakes in Chinese (COURSE_LANG=zh); the English are in hints.ts and mutants.ts. */
import type { LessonZh } from "../engine/zh-types.js";

const zh: LessonZh = {
  lesson: "lesson-20",
  hints: {
    distillationLoss: {
      nudge:
        "两位老师同时给学生打分：标签（每个位置一个正确 token）和教师模型（每个位置一整个分布）。哪些位置计入？哪个 logit 预测哪个标签？两项中哪一项被温度软化？",
      keyIdea:
        "先移位：位置 0 … T−2 的 logits 对应位置 1 … T−1 的标签，并把教师的词表截到学生的 V。标签不为 −100 的位置才计入。" +
        "CE：用原始 logits 算 −log q(label) 的掩码均值。蒸馏项：在温度 T 下，p = softmax(teacher/T)，log q = logSoftmax(student/T)；" +
        "每个位置算 KL Σ p·(log p − log q)，对计入的位置取均值，再乘以 T²。让教师不进入梯度带（用 lib/autograd.ts 的 stopGradient），没有位置计入时返回 0。",
      formula:
        "m_i = [label_{i+1} ≠ −100], N = Σ m;  ce = Σ m·(−log softmax(s_i)[y_{i+1}]) / (N + 1e-8);  " +
        "distill = T² · Σ_i m_i Σ_v p_{i,v}(log p_{i,v} − log q_{i,v}) / max(N, 1) with p = softmax(t_i/T), q = softmax(s_i/T);  loss = α·ce + (1 − α)·distill。" +
        "MiniMind：trainer/train_distillation.py:25-36（distillation_loss）以及 51-93 @ d65ef2c。",
    },
  },
  mistakes: {
    distillationLoss: {
      "ce-at-temperature": "交叉熵用了除以 T 的 logits；只有蒸馏项被软化，标签项用的是原始 logits",
      "flipped-kl": "KL 的方向反了，成了 KL(student ‖ teacher)；MiniMind 的 F.kl_div(log q, p) 是 Σ p·(log p − log q)，其中 p 是教师",
      "kl-log-of-probs":
        "KL 用了 log p = log(softmax(teacher / T))：教师概率下溢为 0 的地方得到 0 · (−Infinity) = NaN；应当用 tf.logSoftmax 得到 log p（PyTorch 的 kl_div 把 0 · log 0 算作 0）",
      "kl-over-all-positions": "KL 在所有位置上取了平均；只有标签计入的位置才参与，取的是它们的均值",
      "log-of-softmax":
        "学生的对数概率用 log(softmax(z)) 计算，一旦概率下溢（logit 的差距超过约 100）就变成 −Infinity：请用 tf.logSoftmax",
      "mask-as-span":
        "从第一个计入的标签到最后一个之间的每个位置都计入了，于是两个回答之间的 −100（多轮对话）也被学习了：只计入标签不为 −100 的那些位置",
      "no-shift": "位置 t 和标签 t 比较了；位置 t 的 logits 预测的是 t + 1 处的 token，所以要去掉最后一个位置的 logits 和第一个标签",
      "no-t-squared": "缺少 T² 因子：用 T 软化会让 KL 的梯度缩小约 1/T²，乘以 T² 把它们的量级恢复过来",
      "student-at-t1": "只软化了教师；学生的 logits 也要在 log-softmax 之前除以同一个温度 T",
      "swapped-alpha": "α 加权给了蒸馏项；MiniMind 的损失是 α·CE + (1 − α)·distill",
      "teacher-on-tape": "教师的 logits 得到了梯度；教师是固定的目标（MiniMind 在 no_grad 下计算它，并对它的概率做 detach）",
    },
  },
};

export default zh;
