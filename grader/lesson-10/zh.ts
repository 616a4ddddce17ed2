/** Lesson 10's hints and named mistakes in Chinese (COURSE_LANG=zh); the English are in hints.ts and mutants.ts. */
import type { LessonZh } from "../engine/zh-types.js";

const zh: LessonZh = {
  lesson: "lesson-10",
  hints: {
    causalLmLoss: {
      nudge:
        "标签是输入 id 的一份拷贝。位置 t 上的 logits 是由 token 0..t 算出来的：它们猜的是哪个标签？哪个 logit 和哪个标签会落单？",
      keyIdea:
        "切出 logits[:, :T−1] 和 labels[:, 1:]，都展平。计入的位置 = label ≠ ignoreIndex。" +
        "把被忽略的标签替换成任意合法 id（0），用 sum(logSoftmax(z) ⊙ oneHot(y, V), −1) 取出对数概率（tfjs 里 gatherND 没有梯度），" +
        "把被忽略的项置零，再把求和取负后除以整个批次中计入的标签数（不是逐行）。一个都没计入时得到 0/0 = NaN，和 PyTorch 一样。",
      formula:
        "loss = −(1/|C|) Σ_{(b,t)∈C} log softmax(z_{b,t})[y_{b,t+1}],  C = {(b,t): t < T−1, y_{b,t+1} ≠ ignoreIndex}。" +
        "MiniMind：model/model_minimind.py:250-252 @ d65ef2c。",
    },
  },
  mistakes: {
    causalLmLoss: {
      "contiguous-span":
        "计分的位置被当作每行连续的一段（从第一个计入的目标开始，长度等于计入的个数）：两段之间被忽略的空洞也被计了分；应当按每个位置自己的标签做掩码",
      "count-before-shift": "计分 token 的个数是在移位之前的标签（labels[:, :−1]）上数的，而不是在移位后的目标 labels[:, 1:] 上",
      "counts-ignored": "均值除以了所有位置；应当除以不等于 ignoreIndex 的标签个数",
      "ignore-index-default-zero": "省略时 ignore index 默认成了 0（pad id）；PyTorch 和 MiniMind 的默认值是 −100",
      "ignored-as-class-zero": "被忽略的标签被当作 token 0 计了分；标签为 ignoreIndex 的位置既不应贡献损失，也不应被计数",
      "log-of-softmax":
        "log(softmax(z)) 分两步计算：比本行最大值低 ≈ 100 以上的 logit 在 float32 下 softmax 为 0，log 0 = −∞；请用 logSoftmax（z − max − log Σ exp(z − max)）",
      "naive-log-sum-exp": "计算 log Σ exp(z) 时没有减去本行的最大值：超过 ≈ 88 时 exp 溢出 float32，损失变成 NaN",
      "no-shift": "logits 和同一位置的标签比较了；logits[:, t] 预测的是 labels[:, t + 1]：去掉最后一个 logit 和第一个标签",
      "per-sequence-mean": "这是各序列均值的均值；F.cross_entropy 是对整个批次中所有计入的 token 取一个均值",
      "raw-logits": "把原始 logit 当成了对数概率；要先在词表维度上做 logSoftmax",
      "shift-backwards": "移位方向反了：应当让 logits[:, :-1] 对 labels[:, 1:]，而不是 logits[:, 1:] 对 labels[:, :-1]",
    },
  },
};

export default zh;
