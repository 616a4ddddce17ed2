/** Lesson 14's hints and named mistakes in Chinese (COURSE_LANG=zh); the English are in hints.ts and mutants.ts. */
import type { LessonZh } from "../engine/zh-types.js";

const zh: LessonZh = {
  lesson: "lesson-14",
  hints: {
    cosineLr: {
      nudge: "在第 0 步、第 total/2 步和第 total 步，lr 前面的系数分别应该是多少？先把这三个数写下来。",
      keyIdea:
        "半个余弦 cos(π·step/total) 在整个训练过程中从 1 变到 −1，所以 (1 + cos)/2 从 1 变到 0。" +
        "MiniMind 把它压进 [0.1, 1] 而不是 [0, 1]：一个 0.1 的常数下限，加上 0.9 乘以半余弦。超过 total 的步数不做截断。",
      formula: "lr · (0.1 + 0.45·(1 + cos(π·step/total)))。MiniMind：trainer/trainer_utils.py:40-41 @ d65ef2c。",
    },
    shouldStepOptimizer: {
      nudge: "K = 4、步数从 1 开始计时，在哪些微批次之后恰好累加了 4 份梯度？",
      keyIdea: "优化器在每组 K 个微批次的最后一个上更新：第 K、2K、3K、… 步。计数从 1 开始，所以第 0 步不会出现。",
      formula: "step mod K = 0。MiniMind：trainer/train_pretrain.py:42 @ d65ef2c。",
    },
    shouldFlushTail: {
      nudge: "一个 epoch 有 10 个微批次、K = 4，在第 4 和第 8 个之后做了更新。第 9 和第 10 个的梯度去哪了？",
      keyIdea:
        "恰好当最后一步没有凑满一组时，尾部还有梯度在等待（和更新用同一条 mod K 规则，作用在最后一步上）。" +
        "恢复训练的 epoch 也可能一个微批次都没跑就结束（最后一步 = 起始步）：这时什么都没累加，也就什么都不用冲刷。",
      formula: "lastStep > startStep and lastStep mod K ≠ 0。MiniMind：trainer/train_pretrain.py:75-80 @ d65ef2c。",
    },
    clipGradNorm: {
      nudge: "限制的是每个张量各自的范数，还是把整个模型的梯度看作一个长向量后的范数？",
      keyIdea:
        "算出一个全局范数：所有梯度的所有元素的平方和再开方（各张量范数构成的向量的范数也是同一个数）。" +
        "然后所有张量共用一个系数 maxNorm/(norm + 1e-6)，上限为 1，使小梯度原样通过。返回裁剪之前测得的范数。" +
        "全部放在一个 tidy 作用域里，并返回新的张量。",
      formula:
        "n = √(Σ_i Σ_j g_ij²); c = min(1, maxNorm/(n + 1e-6)); g_i ← c·g_i; return {grads, totalNorm: n}。" +
        "MiniMind 在 trainer/train_pretrain.py:44 @ d65ef2c 调用 torch.nn.utils.clip_grad_norm_。",
    },
  },
  mistakes: {
    clipGradNorm: {
      "no-sqrt": "把范数的平方 Σg² 当成了范数：要开平方根",
      "no-tidy": "数值对，但中间张量泄漏了：把函数体包进 tf.tidy(() => …)",
      "norm-after": "返回的是裁剪之后的范数；clip_grad_norm_ 返回的是裁剪之前的",
      "per-tensor": "每个梯度按它自己的范数裁剪：裁剪用的是所有参数上的一个全局范数",
      "scale-up": "系数 maxNorm/‖g‖ 没有以 1 为上限，于是小梯度被放大了",
      "spread-in-hypot":
        "对每个梯度值调用 Math.hypot(...values)，在真实模型的梯度上（几十万个数）会撑爆调用栈：请用张量运算或循环做归约",
      "unguarded-factor":
        "‖g‖ > maxNorm 时系数用的是 maxNorm / ‖g‖：PyTorch 除以 ‖g‖ + 1e-6 并以 1 为上限，范数很小时这一点很重要",
    },
    cosineLr: {
      clamped: "超过终点的步数被截在下限；MiniMind 的公式没有截断（余弦会重新升回来）",
      linear: "这是直线衰减：MiniMind 的曲线是半个余弦，两端平缓",
      "no-floor": "学习率衰减到了 0：MiniMind 保留 lr/10 的下限，lr·(0.1 + 0.45·(1 + cos))",
      "no-pi": "余弦里缺了 π，于是学习率几乎不下降：在整个训练过程中角度必须从 0 走到 π",
    },
    shouldFlushTail: {
      always: "每个 epoch 结束时都冲刷一次：如果最后一步凑满了一组，优化器已经更新过了",
      "from-resume": "分组是从恢复点开始数的；应当像更新规则那样从第 1 步开始数（step mod K）",
      "no-start-check": "一个微批次都没跑的 epoch（最后一步 = 起始步）也做了冲刷：这时没有任何梯度在等待",
    },
    shouldStepOptimizer: {
      "every-step": "从第 K 步起每个微批次之后都更新优化器：必须等每组凑满 K 个",
      "first-of-group": "在每组的第一个微批次上就更新了优化器，其余 K − 1 份梯度还没累加进来",
      "zero-based": "把步数当成了从 0 开始（(step + 1) mod K）：MiniMind 的微批次从 1 开始计数",
    },
  },
};

export default zh;
