/** Lesson 23's hints and named mistakes in Chinese (COURSE_LANG=zh); the English are in hints.ts and mutants.ts. */
import type { LessonZh } from "../engine/zh-types.js";

const zh: LessonZh = {
  lesson: "lesson-23",
  hints: {
    responseLogpPositions: {
      nudge:
        "因果语言模型在位置 p 上的 logits 是它对位置 p + 1 上 token 的预测。" +
        "回复的第 j 个 token 在完整序列中处于哪个位置？又是哪个位置对它做出了预测？",
      keyIdea:
        "第 b 行回复的第 j 个 token 位于 promptLens[b] + j，所以它是由前一个位置预测的。" +
        "构造一列每行的起始位置 [B, 1] 和一行偏移量 0 … R−1 [1, R]，两者相加经广播得到 [B, R]。" +
        "全程保持 int32：在 TensorFlow.js 中，int32 减去一个普通 JS 数字会变成 float32，而 gather 需要整数索引。",
      formula:
        "positions[b, j] = promptLens[b] − 1 + j。" +
        "步骤：从 promptLens 中减去一个 int32 的 1，并变形为 [B, 1] 的列；构造 int32 的偏移量 0 … R − 1，作为 [1, R] 的行；在同一个 tidy 作用域里把两者相加（广播）。" +
        "MiniMind 同样由 prompt 长度和回复内的索引构造这些位置（trainer/train_ppo.py:120-121 @ d65ef2c）。",
    },
    maskedGae: {
      nudge:
        "第 t 步的优势要用到第 t + 1 步的优势，所以循环要倒着跑：从 t = R − 1 到 0，逐行计算。" +
        "最后一个位置之后的价值和优势分别是多少？",
      keyIdea:
        "分两遍。第一遍在全部 R 个位置上做 GAE 递推，末尾之后取 V = 0、A = 0，并且不管掩码（MiniMind 到最后才乘掩码）；" +
        "returns 由这些未归一化的优势得到：A + V。第二遍做归一化：均值和方差只统计掩码为 1 的 token" +
        "（总体方差：除以计数，计数下限取 1），结果再乘以掩码，使填充位置最终为 0。" +
        "每个位置按它自己的掩码值加权：掩码中间可能有空洞，不能把它当成每行一个长度。" +
        "用 dataSync() 把每个张量各读一次，再在 Float32Array 上循环，是最简单也最快的写法：GAE 不需要梯度，" +
        "而逐时间步的张量循环要启动 R 次小 kernel（README 的基准表给出了两种写法的耗时）。两种写法的递推完全相同。",
      formula:
        "δ_t = r_t + γ·V_{t+1} − V_t (V_R = 0);  A_t = δ_t + γλ·A_{t+1} (A_R = 0);  returns = A + V;  " +
        "n = max(Σm, 1);  μ = Σ(A·m)/n;  σ² = Σ((A − μ)²·m)/n;  advantages = (A − μ)/√(σ² + 1e-8) · m。" +
        "MiniMind：trainer/train_ppo.py:139-150 @ d65ef2c。",
    },
    ppoPolicyLoss: {
      nudge:
        "这个损失通过概率比，逐 token 地比较正在训练的策略与生成这批数据的策略。" +
        "你拿到的是对数概率：两个对数之差怎样变成一个比值？",
      keyIdea:
        "ρ = exp(new − old)。PPO 对每个 token 把目标算两次：一次用 ρ，一次用裁剪到 [1 − ε, 1 + ε] 的 ρ，并保留更悲观的那个。" +
        "写成损失（取负）之后，就是 −A·ρ 与 −A·clip(ρ) 的 max，而不是 min。" +
        "只在掩码保留的 token 上取平均，Σ(x·m) / max(Σm, 1)，而不是在全部 B·R 个位置上平均。" +
        "对差值取指数，绝不要写成 exp(new) / exp(old)：低于约 −104 的对数概率在 float32 中会下溢为 0。全程用张量运算：梯度必须能传到 newLogps。",
      formula:
        "ρ = exp(newLogps − oldLogps);  loss = Σ m·max(−A·ρ, −A·clip(ρ, 1 − ε, 1 + ε)) / max(Σm, 1)。" +
        "步骤：对差值取指数，裁剪比值，对两个取负后的项逐元素取最大值，再做带掩码的求和并除以下限为 1 的计数，全部放在同一个 tidy 作用域里。" +
        "MiniMind：trainer/train_ppo.py:204-211 @ d65ef2c（它在第 212 行还加上了 kl_coef 乘以参考模型惩罚项；本函数不加）。",
    },
    referenceKlPenalty: {
      nudge:
        "对每个 token，策略与参考模型一致时惩罚必须为 0，否则为正，尽管单个样本的对数比可正可负。" +
        "关于 u = ref − policy 的哪个简单函数永远非负，并且只在 u = 0 处取 0？",
      keyIdea:
        "使用 k3 估计量 e^u − u − 1，其中 u = ref − policy：由于 e^x ≥ 1 + x，它永远非负。减法的顺序很重要，因为这个估计量不对称。" +
        "然后在回复 token 上取带掩码的均值，分母下限取 1，这样全部被掩掉的 batch 得到 0 而不是 NaN。" +
        "由差值 u 计算 e^u，不要写成 exp(ref) / exp(policy)：对数概率低于约 −104 时那是 0/0。",
      formula:
        "u = refLogps − policyLogps;  penalty = Σ m·(e^u − u − 1) / max(Σm, 1)。" +
        "MiniMind：trainer/train_ppo.py:207-208 @ d65ef2c。",
    },
    clippedValueLoss: {
      nudge:
        "一次更新里，critic（价值模型）的预测不应离它在 rollout 时的预测太远。" +
        "怎样把 V 限制在距 V_old 不超过 c 的范围内？之后又该相信哪一个误差？",
      keyIdea:
        "把新的价值裁剪到 [V_old − c, V_old + c]（以 rollout 时的价值为中心，而不是以 0 为中心），分别计算裁剪前、裁剪后与 returns 的平方误差。" +
        "每个 token 保留两者中较大的那个，这样裁剪永远掩盖不了大的误差；然后取带掩码的均值（分母为 max(Σm, 1)），再乘以 0.5。" +
        "全程用张量运算（不要 dataSync）：critic 正是通过这个损失对 values 的梯度来学习的。",
      formula:
        "V_clip = min(max(V, V_old − c), V_old + c);  loss = 0.5 · Σ m·max((V − R)², (V_clip − R)²) / max(Σm, 1)。" +
        "TensorFlow.js 的 clipByValue 只接受普通数字作为上下界，所以要与张量边界 V_old ∓ c 做逐元素的 maximum 和 minimum 来裁剪。" +
        "MiniMind：trainer/train_ppo.py:213-216 @ d65ef2c。",
    },
  },
  mistakes: {
    clippedValueLoss: {
      "clip-absolute": "V 被裁剪到了 [−c, c]；它应当保持在 rollout 时价值的 c 范围内，即 [V_old − c, V_old + c]",
      "mean-over-padding": "价值损失把填充位置也算进了平均；应除以掩码保留的 token 数",
      "min-instead-of-max": "对两个平方误差取 min，裁剪项就能掩盖大的误差；应取 max",
      "no-gradient":
        "损失是在普通数字上算的（dataSync），再作为新的标量返回：数值没错，但梯度传不到 critic 的 values；请全程使用张量运算",
      "no-half": "价值损失前面缺了系数 0.5",
    },
    maskedGae: {
      "mask-as-prefix":
        "把掩码当成了每行一个长度（只保留前 Σ mask 个位置）；掩码中间可能有空洞：每个位置应按它自己的掩码值加权",
      "no-final-mask": "填充位置的归一化优势不为 0：最后要乘以掩码",
      "no-gamma-in-delta": "δ_t = r_t + V_{t+1} − V_t 忘了用 γ 对自举价值打折",
      "no-lambda": "A_t = δ_t + γ·A_{t+1} 漏掉了 λ（相当于 λ = 1 的 GAE）",
      "reset-at-mask": "递推在被掩掉的位置重新开始了；MiniMind 在全部 R 个位置上递推，之后才应用掩码",
      "returns-from-normalised": "returns 是由归一化后的优势算出的；它必须是归一化之前的 A + V",
      "sample-variance": "方差除以了 n − 1（样本方差）；MiniMind 除以 n（总体方差）",
      "stats-over-padding": "你的优势在归一化时把填充位置也算进去了：均值和方差只能统计掩码保留的 token",
    },
    ppoPolicyLoss: {
      "clip-log-ratio": "对数比被裁剪到了 [−ε, ε]；PPO 裁剪的是比值本身，范围是 [1 − ε, 1 + ε]",
      "flipped-ratio": "比值算成了 exp(old − new)；它应当是 π_new/π_old = exp(new − old)",
      "mean-over-padding": "损失在全部 B·R 个位置上取了平均；应除以掩码保留的 token 数",
      "min-instead-of-max":
        "对取负后的目标取 min，得到的是乐观的界；PPO 取 max(−A·ρ, −A·clip(ρ))，让更新保持悲观",
      "no-clip": "比值从未被裁剪，一个 batch 就能把策略推到任意远",
      "no-gradient":
        "损失是在普通数字上算的（dataSync），再作为新的标量返回：数值没错，但梯度传不到 newLogps，策略永远学不到东西；请全程使用张量运算",
      "ratio-of-probs":
        "比值按 exp(new) / exp(old) 计算：对数概率低于约 −104 时两者都下溢为 0，结果是 NaN；应对差值取指数，exp(new − old)",
    },
    referenceKlPenalty: {
      "flipped-delta": "u = policy − ref；k3 估计量需要 u = ref − policy（它不对称）",
      k1: "用了朴素的对数比（k1）；MiniMind 用的是 k3 形式 exp(u) − u − 1，它永远非负",
      "no-minus-one": "exp(u) − u − 1 中缺了 − 1，导致两个相同的策略得到的惩罚是 1 而不是 0",
      "ratio-of-probs":
        "e^u 按 exp(ref) / exp(policy) 计算：对数概率低于约 −104 时两者都下溢为 0，结果是 NaN；应对差值取指数，exp(ref − policy)",
      "unclamped-denominator": "除以 Σmask 时没有加 max(·, 1)，所有 token 都被掩掉时会得到 NaN",
    },
    responseLogpPositions: {
      "first-row-length": "每一行都用了第一行的 prompt 长度；每行都有自己的长度",
      "float-dtype": "在 TensorFlow.js 中，int32 − 一个 JS 数字会变成 float32：位置必须保持 int32，才能作为 gather 的索引",
      "off-by-one":
        "位置从 promptLen 开始，但位置 p 的 logits 预测的是 token p + 1：回复的第 j 个 token 应在 promptLen − 1 + j 处读取",
    },
  },
};

export default zh;
