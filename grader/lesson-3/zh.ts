/** Lesson 3's hints and named mistakes in Chinese (COURSE_LANG=zh); the English are in hints.ts and mutants.ts. */
import type { LessonZh } from "../engine/zh-types.js";

const zh: LessonZh = {
  lesson: "lesson-3",
  hints: {
    filteredProbabilities: {
      nudge:
        "MiniMind 在 softmax 之前按固定顺序改写分数。它的四个步骤中，哪一步看的是概率质量（probability mass）？前面哪些步骤会改变这份质量？",
      keyIdea:
        "在 [B, V] 的副本上操作（把 [V] 变形为 [1, V]，最后再变回来）。先除以 T。对每个出现过的不同 id 只惩罚一次，按符号处理：正分数除以 θ，其余的乘以 θ。" +
        "top-k：低于第 k 大分数的一律变成 −∞（并列的保留）。top-p：把分数按降序排序（对全部 V 个元素做一次 top-k 就能做到，并且带回原始索引）；" +
        "由排序后分数的累积 softmax 决定去留，掩码整体右移一位，使跨过 p 的那个 token 得以保留。" +
        "再把排序后的掩码放回词表顺序（这里按排序索引 scatter 没问题：采样不需要梯度），然后做 softmax。" +
        "顺序很重要：温度和惩罚可以交换，top-k 不受缩放影响，但 top-p 看到的必须是除过温度之后的分布。",
      formula:
        "s = z/T;  s_v ← s_v/θ if s_v > 0 else s_v·θ for v in unique(previous);  s_v ← −∞ if s_v < kth(s);  " +
        "sorted: c_j = Σ_{i≤j} softmax(sorted)_i, drop j > 0 when c_{j−1} > p;  q = softmax(s)。" +
        "MiniMind：model/model_minimind.py:267-278 @ d65ef2c。",
    },
    sampleNextToken: {
      nudge: "分布你已经有了。怎样把一个 [0, 1) 上的均匀随机数 u 变成一个以概率 q_v 被选中的 token？",
      keyIdea:
        "用你的 filteredProbabilities 算出 q，用 dataSync() 读一次；整个调用只创建一个 new Rng(seed)。" +
        "按顺序对每一行取一次 rng.next()，再沿词表顺序遍历这一行、累加概率（用 float64，即普通 JS 数字），直到累加和超过 u；" +
        "跳过概率为零的 token，这样被过滤掉的 token 永远不会被返回。返回 int32 的 id：[V] 的 logits 返回标量，[B, V] 返回 [B]。",
      formula:
        "token_b = min{ v : Σ_{j≤v} q_{b,j} > u_b },  u_b = the b-th rng.next() of new Rng(seed)；" +
        "把这些 token 作为 int32 张量返回，形状是 logits 的形状去掉最后一维。" +
        "MiniMind 用 torch.multinomial 抽样（model/model_minimind.py:278 @ d65ef2c）：分布相同，用的是 PyTorch 自己的生成器；本课程的带种子抽样让结果在任何语言里都可复现。",
    },
  },
  mistakes: {
    filteredProbabilities: {
      "batch-max-shift":
        "softmax 减去的是整个批次的最大值（tf.max 没有指定 axis），而不是每一行自己的最大值：比另一行低很多的那一行会下溢成 0/0 = NaN",
      "penalty-always-divides": "负分数被除以了 θ，这反而把它们抬高了；MiniMind 对 ≤ 0 的分数乘以 θ，对正分数除以 θ",
      "penalty-needs-history":
        "只要惩罚系数不是 1 就去读 previousTokens；没有历史 token 时没有什么可惩罚的（分数保持原样）",
      "penalty-per-occurrence": "出现两次的 token 被惩罚了两次；惩罚对每个不同的历史 token 只施加一次（torch.unique）",
      "softmax-without-max":
        "softmax 写成了 exp(s)/Σexp(s)，没有先减去该行的最大值：分数超过 ≈ 88 时 float32 溢出为 Infinity，结果是 NaN",
      "spread-batch-max":
        "批次最大值是用 Math.max(...values) 取的：展开几十万个参数会抛出 RangeError；请用张量运算（或循环）逐行归约",
      "temperature-default-one": "没有给出 temperature 的 options 被当成了 T = 1；MiniMind 的默认温度是 0.85",
      "temperature-last": "温度是在过滤之后才施加的；应当先把 logits 除以温度：top-p 必须看到除过温度之后的分布",
      "top-k-off-by-default": "省略 topK 时 top-k 被关掉了；MiniMind 默认保留最大的 50 个分数",
      "top-p-before-top-k": "top-p 在 top-k 之前执行了；MiniMind 先截到最大的 k 个，再在剩下的 token 上计算核（nucleus）",
      "top-p-drops-crossing":
        "top-p 把累积概率跨过 p 的那个 token 也丢掉了；把掩码右移一位，让这个 token（以及永远保留的第一个 token）留下",
      "top-p-inclusive":
        "累积概率恰好等于 p 时，top-p 就丢掉了其后的 token；只有累积概率超过 p（>）时，才移除它之后的 token",
    },
    sampleNextToken: {
      "defaults-off":
        "options 里省略的参数被当成了关闭（T = 1、不做 top-k、不做 top-p）；MiniMind 的默认值是 T 0.85、k 50、p 0.85",
      greedy: "取了概率最大的 token；应当抽样：取第一个累积概率超过带种子 Rng 给出的 u 的 token",
      "reseeded-per-row":
        "每一行都用了一个新的 Rng(seed)，于是相同的行总是抽到同一个 token；每次调用只创建一个 Rng，每行取一个数",
      "sorted-order":
        "累加时按从最可能到最不可能的顺序遍历 token；应当按词表顺序（id 0, 1, 2, …）遍历，同一个种子才会选出和参考答案相同的 token",
      unfiltered: "抽样忽略了惩罚、top-k 和 top-p；应当从 filteredProbabilities(logits, opts) 中抽样",
    },
  },
};

export default zh;
