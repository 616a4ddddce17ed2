/** Lesson 24's hints and named mistakes in Chinese (COURSE_LANG=zh); the English are in hints.ts and mutants.ts. */
import type { LessonZh } from "../engine/zh-types.js";

const zh: LessonZh = {
  lesson: "lesson-24",
  hints: {
    groupRelativeAdvantages: {
      nudge:
        "这里没有 critic：一个回答好不好，要看它是否胜过同一个 prompt 的其他回答。" +
        "同一个 prompt 的 G 个回答在 batch 中是相邻排列的：变成什么形状，才能让每个组各占一行？",
      keyIdea:
        "把奖励 reshape 成 [N, G]，求每一行的均值和标准差，做归一化，再展平回去。" +
        "标准差用总体标准差（除以 G，而不是 G − 1；TensorFlow.js 的 moments 给出的正是这个方差），并且 eps 加在标准差上，而不是加在根号里。" +
        "奖励全部相同的组，结果必须是 0（在 float32 舍入误差之内），绝不能是 NaN：E[r²] − μ² 在 float32 中会严重抵消，所以要对 (r − μ)² 求均值。",
      formula:
        "A_i = (r_i − μ_g) / (σ_g + 1e-4), σ_g = √(mean_g (r − μ_g)²)。" +
        "MiniMind：trainer/train_grpo.py:121-124 @ d65ef2c（std(dim=1, unbiased=False)，然后 repeat_interleave）。",
    },
    grpoCompletionMask: {
      nudge:
        "回答在它的第一个 EOS 处结束，而且 EOS 本身也属于回答。" +
        "一行如果始终没有生成 EOS，该怎么处理？落在填充区里的 EOS id 能结束回答吗？",
      keyIdea:
        "只在填充掩码为 1 的位置上标记 EOS。有 EOS 的行，结束索引就是第一个被标记的位置（对 0/1 行取 arg-max 返回第一个最大值）；" +
        "没有 EOS 的行（没有任何位置被标记）用 R − 1，因为全零行的 argMax 是 0。然后保留满足 j ≤ 该索引且同时是真实 token 的位置。返回 int32。",
      formula:
        "isEos = (ids == EOS) ∧ pad;  e_b = any(isEos_b) ? argmax(isEos_b) : R − 1（第一个真实的 EOS）;  mask[b, j] = (j ≤ e_b) ∧ pad[b, j]，int32。" +
        "MiniMind：trainer/train_grpo.py:126-130 @ d65ef2c。",
    },
    tokenKlPenalty: {
      nudge:
        "与第 23 课的参考模型 KL 是同一个惩罚，只是逐 token 返回，不加掩码，也不取均值。k3 需要怎样的减法顺序？",
      keyIdea:
        "u = ref − policy，然后算 e^u − u − 1：永远非负，只在两个对数概率相等处为 0。顺序很重要，因为这个估计量不对称。" +
        "由差值计算 e^u，不要写成 exp(ref) / exp(policy)（低于约 −104 时是 0/0）。",
      formula:
        "u = ref − policy;  kl = exp(u) − u − 1，逐元素计算（不加掩码）。MiniMind：trainer/train_grpo.py:132-133 @ d65ef2c。",
    },
    grpoPolicyLoss: {
      nudge:
        "它就是 PPO 的裁剪代理目标，只是每个回答一个优势而不是每个 token 一个，并且每个 token 的损失里都含有 KL 项。" +
        "平均是怎么做的：一次性对所有 token 平均，还是一个回答一个回答地平均？",
      keyIdea:
        "ρ = exp(policy − old)；把 [B] 的优势沿每一行广播（[B, 1]）；保留 min(ρA, clip(ρ, 1 − ε, 1 + ε)A)，减去 β·kl，再取负。" +
        "然后每行算 Σ(ℓ·m)/max(Σm, 1)，再对所有行取均值。梯度必须同时流经 ρ 和 KL 项：两者都不要 detach。" +
        "对差值取指数，绝不要写成 exp(policy) / exp(old)：低于约 −104 的对数概率在 float32 中会下溢为 0。",
      formula:
        "ρ = exp(policy − old)，A 沿每一行广播;  ℓ_t = −(min(ρ_t·A, clip(ρ_t, 1 − ε, 1 + ε)·A) − β·kl_t);  loss = mean_b[Σ_t ℓ_t·m_t / max(Σ_t m_t, 1)]。" +
        "MiniMind：trainer/train_grpo.py:132-134, 138-143 @ d65ef2c。",
    },
    cispoPolicyLoss: {
      nudge:
        "CISPO 从不把某个 token 排除在梯度之外；它限制的是每个 token 推动的力度。哪个因子是学习信号，哪个只是权重？",
      keyIdea:
        "权重是 min(ρ, ε_high)，只有上限（ε_high 前面没有 1 +），并用 stopGradient 包起来，梯度不会流经它。" +
        "它与 A 以及策略的对数概率本身相乘：携带梯度的是 log π。KL 项相同，也同 GRPO 一样先在每个序列内平均、再对整个 batch 平均。" +
        "有没有 stopGradient，数值都一样；评分器检查的是梯度。",
      formula:
        "ρ = exp(policy − old);  w_t = stopGradient(min(ρ_t, ε_high));  ℓ_t = −(w_t·A·log π_θ(y_t) − β·kl_t);  loss = mean_b[Σ_t ℓ_t·m_t / max(Σ_t m_t, 1)]。" +
        "于是每个 token 的梯度是 w·A（经由 log π），即使在 GRPO 的裁剪会把它置零的地方也是如此。" +
        "MiniMind：trainer/train_grpo.py:132-137, 143 @ d65ef2c。",
    },
  },
  mistakes: {
    cispoPolicyLoss: {
      "no-detach": "权重 min(ρ, ε_high) 没有 detach：数值没错，但梯度也流经了 ρ；请用 stopGradient 包起来",
      "no-logp": "缺了对数概率这个因子：CISPO 的项是 w·A·log π，梯度正是来自 log π",
      "no-truncation": "权重 ρ 从未被截断：巨大的比值得到巨大的权重；请用 min(ρ, ε_high)",
      "one-plus-epsilon": "权重的上限取成了 1 + ε_high；CISPO 直接把比值截断在 ε_high（默认为 5），并且没有下限",
      "ratio-of-probs":
        "比值按 exp(policy) / exp(old) 计算：对数概率低于约 −104 时两者都下溢为 0，结果是 NaN；应对差值取指数，exp(policy − old)",
      "token-mean": "所有计入的 token 被放在一起平均；MiniMind 先在每个序列内平均，再对所有序列平均",
    },
    groupRelativeAdvantages: {
      "batch-statistics": "均值和标准差是在整个 batch 上算的；GRPO 只把每个回答与同一个 prompt 的其他回答相比较",
      "eps-default-1e-8": "eps 默认取了 1e-8（第 23 课的归一化）；MiniMind 的 GRPO 在标准差上加的是 1e-4",
      "eps-ignored": "忽略了 eps 参数（把 1e-4 写死在公式里）：必须使用调用方传入的 eps",
      "eps-inside-sqrt": "eps 放进了根号里，√(σ² + eps)；MiniMind 是除以 σ + eps",
      "moment-shortcut":
        "方差按 E[r²] − μ² 计算，在 float32 中会发生灾难性抵消（奖励全部相同的组会得到负数，开根号就是 NaN）；应对 (r − μ)² 求均值",
      "sample-std": "标准差除以了 G − 1（样本标准差）；MiniMind 用的是 std(unbiased=False)，除以 G",
      "strided-groups": "分组时用了步长（第 i、i + N、… 行）；同一个 prompt 的 G 个回答是连续排列的，所以应 reshape 成 [N, G]",
    },
    grpoCompletionMask: {
      "eos-excluded": "EOS token 本身被掩掉了：应保留 j ≤ eosIndex 的位置，而不是 j < eosIndex",
      "eos-in-padding": "填充区里的 EOS id 结束了回答：只有真实 token（padMask = 1）才能作为 EOS",
      "eos-within-real-count":
        "只在前 Σ padMask 个位置里找 EOS，就好像真实 token 是一段前缀；当填充掩码中间有空洞时，后面真实的 EOS 会被漏掉",
      "inclusive-cumsum":
        "有 EOS 的行把 EOS token 丢掉了（没有 EOS 的行是对的）：对 EOS 做包含当前位置的累计计数，会让回答提前一个 token 结束",
      "last-eos": "用了一行中最后一个 EOS；回答在第一个 EOS 处结束",
      "no-eos-keeps-first": "没有 EOS 的行只保留了 token 0：全零行的 argMax 是 0，所以一行没有 EOS 时要回退到 R − 1",
      "no-pad-mask": "EOS 之前的填充被保留了：掩码是 (j ≤ eosIndex) AND padMask",
    },
    grpoPolicyLoss: {
      "kl-detached": "KL 项被 detach 了，好像它是一个奖励：数值没错，但 β·KL 必须通过它的梯度把策略拉回参考模型",
      "kl-sign": "KL 项的符号反了：损失是 −(surrogate − β·kl)，所以惩罚项是加到损失上的",
      "max-instead-of-min": "对 ρA 与 clip(ρ)A 取 max 得到的是乐观的界；GRPO 在取负之前保留 min(ρA, clip(ρ)A)",
      "no-clip": "比值从未被裁剪到 [1 − ε, 1 + ε]，一个 batch 就能把策略推到任意远",
      "ratio-detached": "比值被 detach 了：数值没错，但只有 KL 项有梯度；GRPO 中梯度要流经 ρ（只有 CISPO 会截断它）",
      "ratio-of-probs":
        "比值按 exp(policy) / exp(old) 计算：对数概率低于约 −104 时两者都下溢为 0，结果是 NaN；应对差值取指数，exp(policy − old)",
      "token-mean": "所有计入的 token 被放在一起平均；MiniMind 先在每个序列内平均，再对所有序列平均",
    },
    tokenKlPenalty: {
      "flipped-delta": "δ = policy − ref；k3 估计量需要 δ = ref − policy（它不对称）",
      k1: "用了朴素的对数比（k1）；MiniMind 用的是 k3 形式 exp(δ) − δ − 1，它永远非负",
      k2: "用了 δ²/2（k2）；MiniMind 用的是 k3 = exp(δ) − δ − 1",
      "no-minus-one": "exp(δ) − δ − 1 中缺了 − 1，导致两个相同的策略得到的惩罚是 1 而不是 0",
      "ratio-of-probs":
        "e^δ 按 exp(ref) / exp(policy) 计算：对数概率低于约 −104 时两者都下溢为 0，结果是 NaN；应对差值取指数，exp(ref − policy)",
    },
  },
};

export default zh;
