/** Lesson 33's hints and named mistakes in Chinese (COURSE_LANG=zh); the English are in hints.ts and mutants.ts. */
import type { LessonZh } from "../engine/zh-types.js";

const zh: LessonZh = {
  lesson: "lesson-33",
  hints: {
    klEstimator: {
      nudge: "三个估计量都从同一个对数比 δ = logProbs − logProbsBase 出发。其中哪一个在单个 token 上可能为负？",
      keyIdea:
        "取 δ = logProbs − logProbsBase：k1 就是 δ 本身（无偏，可能为负），k2 是它平方的一半，k3 是 e^{−δ} − 1 + δ（先对 δ 取负，再算 exp(x) − 1 − x）；k2 和 k3 都 ≥ 0。" +
        "除非 applyClamp 为 false，否则截断到 [−10, 10]；遇到其他名字一律抛异常。",
      formula: "k1 = δ;  k2 = δ²/2;  k3 = e^{−δ} − 1 + δ;  clip(·, −10, 10)。AReaL：areal/utils/data.py:1603-1656 @ 4aef98d8。",
    },
    overlongPenalty: {
      nudge: "惩罚只取决于每个回复的长度。它从哪里开始？到达生成长度上限时又是多少？",
      keyIdea:
        "长度 = 该行损失掩码中 token 的个数。免罚区在距上限 overlongTokens 处结束；从那里开始惩罚线性下降，并且以 0 为上限，所以短回答永远拿不到额外奖励。" +
        "返回一个新张量。",
      formula:
        "len_i = Σ_t lossMask[i, t];  L = maxResponseLength − overlongTokens;  rewards'[i] = rewards[i] + min(−(len_i − L) / overlongTokens · overlongPenaltyFactor, 0)：" +
        "长度为 L + k 个 token 的回复扣掉 k/overlongTokens · factor。AReaL：areal/utils/functional/functional.py:782-804 @ 4aef98d8。",
    },
    arealAdvantages: {
      nudge:
        "训练引擎张量中的位置 t 描述的是对 token t + 1 的预测。你的输入中哪些仍然按 token 索引？用什么把它们挪到这个坐标系里？",
      keyIdea:
        "先对奖励做整形（bias、scale、clip）。把 lossMask 和 logprobs 按 −1 做 roll（像 torch.roll 那样循环移位），两个对数概率张量都乘上掩码，并把 −klCtl·klEstimator(old, ref) 作为稠密奖励。" +
        "在 seqlen − 1 处把奖励置零，在 max(seqlen − 2, 0) 处加上整形后的结果奖励（maskNoEosWithZero 时，没有 EOS 的行不加）。" +
        "GAE 从 T − 2 往前递推，只有 seqlen == T 的行从 V[T − 1] 开始自举；在被掩掉的位置，运行中的价值和优势原样延续，该位置存入延续下来的优势。",
      formula:
        "每一行：seqlen = max(Σ attentionMask, 1), noEos = (seqlen == T)。  " +
        "1. score = clip((rewards + rewardBias)·rewardScaling, −rewardClip, rewardClip)。  " +
        "2. mask = roll(lossMask, −1); old = roll(logprobs, −1)·mask; ref = refLogp·mask（或 0）。  " +
        "3. klRewards = −klCtl·klEstimator(old, ref, kind)（截断到 ±10）。  " +
        "4. tot = klRewards; tot[seqlen − 1] = 0; tot[max(seqlen − 2, 0)] += score（maskNoEosWithZero 且 noEos 时改为 + 0）。  " +
        "5. GAE 从 t = T − 2 往前（A_{T−1} = 0），初始 V' = noEos ? V_{T−1} : 0，A' = 0：Â = tot_t + γ·V' − V_t + γλ·A';  if mask_t: V' = V_t, A' = Â;  A_t = A'。  " +
        "6. returns = A + V。用普通数组就行：这里什么都不需要梯度。AReaL：areal/trainer/ppo/actor.py:145-249 @ 4aef98d8。",
    },
  },
  mistakes: {
    arealAdvantages: {
      "always-bootstrap": "只有没有 EOS 的行（seqlen == T）才从 V[T − 1] 自举；已经结束的行从 0 开始",
      "ignore-mask-no-eos": "开启 maskNoEosWithZero 时，占满窗口的行（没有 EOS）得不到结果奖励",
      "keep-last-kl": "加上结果奖励之前，必须先把 seqlen − 1 处（最后一个 token 之后）的奖励置为 0",
      "kl-rewards-after-shaping": "klRewards 是在 seqlen − 1 处置零、加上结果奖励之前取的一份拷贝",
      "kl-sign-flipped": "KL 奖励是 −kl_ctl·KL：偏离参考模型必须付出奖励上的代价",
      "logprobs-not-rolled": "推理引擎的对数概率是按 token 坐标排列的：与 refLogp 比较之前，先按 −1 做 roll",
      "mask-not-rolled": "GAE 使用损失掩码之前，必须先把它按 −1 做 roll（这样位置 t 描述的是 token t + 1）",
      "never-bootstrap": "被截断的行（没有 EOS）要从 V[T − 1] 自举：它的回答并没有结束，所以之后的价值不是 0",
      "no-carry": "在被掩掉的位置，运行中的价值和优势原样延续；只有掩码为 true 的位置才更新它们",
      "reward-at-last-token": "结果奖励放在位置 max(seqlen − 2, 0)，即预测最后一个 token 的位置，而不是 seqlen − 1",
      "scale-after-clip": "顺序是 clip((r + bias)·scale, ±clip)：先缩放，再裁剪",
      "zero-masked": "被掩掉的位置存入的是延续下来的优势，而不是 0",
    },
    klEstimator: {
      "always-clamp": "applyClamp = false 时必须返回原始估计值，不做 [−10, 10] 截断",
      "k1-flipped": "k1 是 δ = log p − log p_base，而不是 log p_base − log p",
      "k2-no-half": "k2 是 δ²/2：缺了系数 1/2",
      "k3-ratio-as-quotient":
        "k3 中的比值 p_base/p 按 exp(logProbsBase) / exp(logProbs) 计算；对数概率低于约 −104 时两个指数都下溢，比值是 0/0 = NaN：应改为对差值取指数",
      "k3-unflipped": "k3 是 e^{−δ} − 1 + δ，其中 δ = log p − log p_base；e^δ − 1 − δ 估计的是另一个方向的 KL",
      "never-clamp": "默认情况下（applyClamp = true）估计值要截断到 [−10, 10]",
      "no-validation": "未知的估计量名字必须抛出错误，而不是退回到 k1",
    },
    overlongPenalty: {
      "divide-by-max": "超出的部分要除以 overlongTokens（斜坡的长度），而不是 maxResponseLength",
      "length-from-last-position":
        "回复长度取成了最后一个损失掩码 token 的位置 + 1，这会把 prompt 和中间的空洞（工具输出）都算进去；长度应是该行损失掩码中 token 的个数",
      "length-from-width": "回复长度是该行损失掩码中 token 的个数，而不是填充后的宽度",
      "no-cap": "短回复拿到了额外奖励：惩罚是 min(…, 0)，永远不为正",
      "threshold-at-max": "斜坡从距上限 overlongTokens 处开始：excess = length − (maxResponseLength − overlongTokens)",
    },
  },
};

export default zh;
